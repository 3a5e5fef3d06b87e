package testenv

import (
	"crypto/tls"
	"errors"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/listeners"
)

// EdgeHub is a double of IoT Edge's edgeHub for one module: an embedded MQTT
// broker (mochi) on a TLS loopback port, with a certificate for "localhost"
// from the workload double's CA, that admits only the module's identity with
// a valid SAS token signed by the workload double's key, restricts topics as
// edgeHub does, records module outputs, injects module inputs, and serves the
// module twin (GET, reported patches, desired patches).
type EdgeHub struct {
	WL   *Workload
	Addr string // 127.0.0.1:port; stays the same across Restart

	tls *tls.Config

	mu       sync.Mutex
	now      func() time.Time
	srv      *mqtt.Server
	sockets  *socketListener // srv's listener; Stop closes it and every socket it accepted
	connects []EdgeHubConnect
	denied   []string
	outputs  []EdgeHubOutput
	sent     int           // input messages sent
	acked    int           // PUBACKs for them
	ackCh    chan struct{} // one slot: an input was acknowledged
	twin     twinStore
}

// EdgeHubConnect is one connection attempt.
type EdgeHubConnect struct {
	ClientID, Username, Password string
	// Expiry is the SAS token's se; zero when it did not parse.
	Expiry time.Time
	// Refused says why the connection was refused; empty when accepted.
	Refused string
}

// EdgeHubOutput is one message a module published to an output.
type EdgeHubOutput struct {
	Topic string
	// Properties is the topic's property bag, decoded ($.on, $.ct, $.ce...).
	Properties map[string]string
	Payload    []byte
}

// NewEdgeHub starts the double for wl's module.
func NewEdgeHub(tb testing.TB, wl *Workload) *EdgeHub {
	tb.Helper()
	cert, _, _ := wl.CA.Issue(tb, LeafOptions{CommonName: "localhost", Hosts: []string{"localhost", "127.0.0.1"}})
	h := &EdgeHub{WL: wl, Addr: "127.0.0.1:0", now: time.Now, twin: newTwinStore(), ackCh: make(chan struct{}, 1),
		tls: &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}}
	if err := h.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(h.Stop)
	return h
}

// Env returns the module setting that points it at this double (the
// gateway host name of wl.Env, localhost, stays the TLS server name).
func (h *EdgeHub) Env() []string { return []string{"edgeHub__address=" + h.Addr} }

// SetNow sets the clock SAS expiry is checked against (default time.Now).
func (h *EdgeHub) SetNow(now func() time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.now = now
}

// Start listens on Addr (a new port the first time). The twin survives a
// Stop/Start, as it lives in IoT Hub; sessions and subscriptions do not.
func (h *EdgeHub) Start() error {
	srv := mqtt.New(&mqtt.Options{InlineClient: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err := srv.AddHook(&edgeHubHook{h: h}, nil); err != nil {
		return err
	}
	raw, err := net.Listen("tcp", h.Addr)
	if err != nil {
		return err
	}
	sockets := newSocketListener(raw)
	if err := srv.AddListener(listeners.NewNet("edgehub", tls.NewListener(sockets, h.tls))); err != nil {
		_ = raw.Close()
		return err
	}
	if err := srv.Serve(); err != nil {
		_ = raw.Close()
		return err
	}
	h.mu.Lock()
	h.srv, h.sockets, h.Addr = srv, sockets, raw.Addr().String()
	h.mu.Unlock()
	return nil
}

// Stop ends the double as a process exit ends edgeHub: the listening socket
// and every connection it accepted at once (see sockets.go), then the broker.
func (h *EdgeHub) Stop() {
	h.mu.Lock()
	srv, sockets := h.srv, h.sockets
	h.srv, h.sockets = nil, nil
	h.mu.Unlock()
	if sockets != nil {
		sockets.closeAll()
	}
	if srv != nil {
		_ = srv.Close()
	}
}

// Restart stops and starts the double on the same address, as edgeHub
// restarting does.
func (h *EdgeHub) Restart(tb testing.TB) {
	tb.Helper()
	h.Stop()
	if err := h.Start(); err != nil {
		tb.Fatal(err)
	}
}

// Connected reports whether the module is connected now.
func (h *EdgeHub) Connected() bool {
	h.mu.Lock()
	srv := h.srv
	h.mu.Unlock()
	if srv == nil {
		return false
	}
	cl, ok := srv.Clients.Get(h.WL.Device + "/" + h.WL.ModuleID)
	return ok && !cl.Closed()
}

// inputWindow is how many input messages edgeHub leaves unacknowledged per
// client before it waits (its small in-flight window).
const inputWindow = 16

// SendInput routes payload to the module's input, as an edgeHub route
// "INTO BrokeredEndpoint(\"/modules/{m}/inputs/{input}\")" does: QoS 1 on
// devices/{d}/modules/{m}/inputs/{input}/{property bag}. Like edgeHub it
// keeps at most inputWindow messages unacknowledged: it waits (up to 10 s)
// for the module's PUBACKs before sending more.
func (h *EdgeHub) SendInput(input string, payload []byte) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		h.mu.Lock()
		srv, open := h.srv, h.sent-h.acked < inputWindow
		if srv != nil && open {
			h.sent++
		}
		h.mu.Unlock()
		switch {
		case srv == nil:
			return io.ErrClosedPipe
		case open:
			topic := h.base() + "inputs/" + input + "/%24.cdid=" + h.WL.Device + "&%24.cmid=sensor&%24.ct=application%2Fjson&%24.ce=utf-8"
			return srv.Publish(topic, payload, false, 1)
		case time.Now().After(deadline):
			return errors.New("edgeHub double: the module left " + strconv.Itoa(inputWindow) + " inputs unacknowledged for 10 s")
		}
		select {
		case <-h.ackCh:
		case <-time.After(time.Until(deadline)):
		}
	}
}

func (h *EdgeHub) base() string { return "devices/" + h.WL.Device + "/modules/" + h.WL.ModuleID + "/" }

func (h *EdgeHub) deny(what string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.denied = append(h.denied, what)
}

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
