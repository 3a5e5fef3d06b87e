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
	"github.com/mochi-mqtt/server/v2/packets"
)

// MQTTBroker is an embedded MQTT broker (mochi-mqtt) on a loopback port, for
// tests of MQTT clients. It allows every client. Restart replaces it with a
// fresh broker on the same address, as a broker restart without persistence
// would: sessions and queued messages are gone.
type MQTTBroker struct {
	tb   testing.TB
	tls  *tls.Config
	mu   sync.Mutex
	srv  *mochi.Server
	ln   net.Listener
	hold *holdAcks
	Addr string // host:port
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
	// Our own listener, so Stop can close it before mochi drops the clients
	// (mochi does it the other way round, and a client reconnecting at once
	// would land in the closing listener's backlog).
	ln, err := net.Listen("tcp", b.Addr)
	if err != nil {
		b.tb.Fatal(err)
	}
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
	b.srv, b.ln, b.Addr = srv, ln, ln.Addr().String()
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
	srv, ln := b.srv, b.ln
	b.srv, b.ln = nil, nil
	b.mu.Unlock()
	if srv != nil {
		_ = ln.Close()
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

// MQTTMessage is a message a Capture received.
type MQTTMessage struct {
	Topic   string
	Payload []byte
	QoS     byte
}

// Capture records what the broker routes to filter, through an inline
// subscription.
type Capture struct {
	mu   sync.Mutex
	msgs []MQTTMessage
}

// Capture subscribes to filter and records every message it matches.
func (b *MQTTBroker) Capture(filter string) *Capture {
	b.tb.Helper()
	c := &Capture{}
	err := b.Server().Subscribe(filter, 1, func(_ *mochi.Client, _ packets.Subscription, pk packets.Packet) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.msgs = append(c.msgs, MQTTMessage{Topic: pk.TopicName, Payload: append([]byte(nil), pk.Payload...), QoS: pk.FixedHeader.Qos})
	})
	if err != nil {
		b.tb.Fatal(err)
	}
	return c
}

// Messages returns a copy of what was captured.
func (c *Capture) Messages() []MQTTMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]MQTTMessage(nil), c.msgs...)
}

// allowAll lets every client connect and use every topic (mochi denies all
// by default; its auth package drags in a YAML dependency).
type allowAll struct{ mochi.HookBase }

func (*allowAll) ID() string { return "allow-all" }

func (*allowAll) Provides(b byte) bool {
	return b == mochi.OnConnectAuthenticate || b == mochi.OnACLCheck
}

func (*allowAll) OnConnectAuthenticate(*mochi.Client, packets.Packet) bool { return true }

func (*allowAll) OnACLCheck(*mochi.Client, string, bool) bool { return true }

// HoldAcks makes the broker hold every client PUBLISH, and so its PUBACK,
// until ReleaseAcks (the inline Publish is held too).
func (b *MQTTBroker) HoldAcks() {
	b.hold.mu.Lock()
	defer b.hold.mu.Unlock()
	if b.hold.gate == nil {
		b.hold.gate = make(chan struct{})
	}
}

// ReleaseAcks lets held publishes through (idempotent).
func (b *MQTTBroker) ReleaseAcks() {
	b.hold.mu.Lock()
	defer b.hold.mu.Unlock()
	if b.hold.gate != nil {
		close(b.hold.gate)
		b.hold.gate = nil
	}
}

// holdAcks blocks OnPublish while its gate is set.
type holdAcks struct {
	mochi.HookBase
	mu   sync.Mutex
	gate chan struct{}
}

func (*holdAcks) ID() string { return "hold-acks" }

func (*holdAcks) Provides(b byte) bool { return b == mochi.OnPublish }

func (h *holdAcks) OnPublish(_ *mochi.Client, pk packets.Packet) (packets.Packet, error) {
	h.mu.Lock()
	g := h.gate
	h.mu.Unlock()
	if g != nil {
		<-g
	}
	return pk, nil
}
