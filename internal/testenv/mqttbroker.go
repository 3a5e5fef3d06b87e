package testenv

import (
	"crypto/tls"
	"io"
	"log/slog"
	"net"
	"sync"
	"testing"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/listeners"
)

// MQTTBroker is an embedded MQTT broker (mochi-mqtt) on a loopback port, for
// tests of MQTT clients. It allows every client. Restart replaces it with a
// fresh broker on the same address, as a broker restart without persistence
// would: sessions and queued messages are gone.
type MQTTBroker struct {
	tb      testing.TB
	tls     *tls.Config
	mu      sync.Mutex
	srv     *mochi.Server
	sockets *socketListener
	hold    *holdAcks
	Addr    string // host:port
}

// StartMQTTBroker starts a plain-TCP broker on 127.0.0.1 and a free port.
func StartMQTTBroker(tb testing.TB) *MQTTBroker { return startMQTTBroker(tb, nil) }

// StartMQTTBrokerTLS starts a broker serving MQTT over TLS with cert.
func StartMQTTBrokerTLS(tb testing.TB, cert tls.Certificate) *MQTTBroker {
	return startMQTTBroker(tb, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
}

func startMQTTBroker(tb testing.TB, cfg *tls.Config) *MQTTBroker {
	tb.Helper()
	b := &MQTTBroker{tb: tb, tls: cfg, Addr: "127.0.0.1:0", hold: &holdAcks{}}
	b.start()
	tb.Cleanup(b.Stop)
	return b
}

func (b *MQTTBroker) start() {
	b.tb.Helper()
	srv := mochi.New(&mochi.Options{InlineClient: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err := srv.AddHook(new(allowAll), nil); err != nil {
		b.tb.Fatal(err)
	}
	if err := srv.AddHook(b.hold, nil); err != nil {
		b.tb.Fatal(err)
	}
	// Our own listener, so Stop can close it and every socket it accepted
	// (see sockets.go).
	raw, err := net.Listen("tcp", b.Addr)
	if err != nil {
		b.tb.Fatal(err)
	}
	sockets := newSocketListener(raw)
	var ln net.Listener = sockets
	if b.tls != nil {
		ln = tls.NewListener(ln, b.tls)
	}
	if err := srv.AddListener(listeners.NewNet("t", ln)); err != nil {
		b.tb.Fatal(err)
	}
	if err := srv.Serve(); err != nil {
		b.tb.Fatal(err)
	}
	b.mu.Lock()
	b.srv, b.sockets, b.Addr = srv, sockets, raw.Addr().String()
	b.mu.Unlock()
}

// URL is the broker's address as tcp:// or ssl://.
func (b *MQTTBroker) URL() string {
	if b.tls != nil {
		return "ssl://" + b.Addr
	}
	return "tcp://" + b.Addr
}

// Server is the running mochi server.
func (b *MQTTBroker) Server() *mochi.Server {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.srv
}

// Stop closes the broker and its connections (idempotent).
func (b *MQTTBroker) Stop() {
	b.ReleaseAcks()
	b.mu.Lock()
	srv, sockets := b.srv, b.sockets
	b.srv, b.sockets = nil, nil
	b.mu.Unlock()
	if srv != nil {
		sockets.closeAll()
		_ = srv.Close()
	}
}

// Restart stops the broker and starts an empty one on the same address.
func (b *MQTTBroker) Restart() {
	b.tb.Helper()
	b.Stop()
	b.start()
}

// Publish sends a message as the broker's inline client.
func (b *MQTTBroker) Publish(topic string, payload []byte, qos byte, retain bool) {
	b.tb.Helper()
	if err := b.Server().Publish(topic, payload, retain, qos); err != nil {
		b.tb.Fatalf("publish to %s: %v", topic, err)
	}
}

// Inflight is the number of messages sent to the client and not yet
// acknowledged by it; -1 when the broker has no session of that client.
func (b *MQTTBroker) Inflight(clientID string) int {
	cl, ok := b.Server().Clients.Get(clientID)
	if !ok {
		return -1
	}
	return cl.State.Inflight.Len()
}

// Connected reports whether the client has a live connection.
func (b *MQTTBroker) Connected(clientID string) bool {
	cl, ok := b.Server().Clients.Get(clientID)
	return ok && !cl.Closed()
}

// Subscribed reports whether the client subscribes to filter.
func (b *MQTTBroker) Subscribed(clientID, filter string) bool {
	cl, ok := b.Server().Clients.Get(clientID)
	if !ok {
		return false
	}
	_, ok = cl.State.Subscriptions.Get(filter)
	return ok
}
