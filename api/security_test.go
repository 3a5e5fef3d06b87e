package api_test

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/api"
	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/destination/webhook"
	"github.com/edgegrid/edgegrid/internal/testenv"
	"github.com/edgegrid/edgegrid/resource"
)

// serve runs s on a loopback listener (TLS when tlsCfg is set).
func serve(t *testing.T, a *api.Server, tlsCfg *tls.Config) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := a.NewHTTPServer(tlsCfg)
	if tlsCfg != nil {
		ln = tls.NewListener(ln, tlsCfg)
	}
	go func() { _ = hs.Serve(ln) }()
	t.Cleanup(func() { _ = hs.Close() })
	return ln.Addr().String()
}

// cutOff fails the test unless the server closes conn within 5 s.
func cutOff(t *testing.T, conn net.Conn) {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 512)
	for {
		_, err := conn.Read(buf)
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Fatal("the server kept a stalled connection open")
		}
		if err != nil {
			return
		}
	}
}

// TestSlowClientsAreCutOff: a client that trickles its headers, or never
// finishes the TLS handshake, loses the connection after ReadHeader.
func TestSlowClientsAreCutOff(t *testing.T) {
	e := newEnv(t, broker.Config{}, func(o *api.Options) { o.Timeouts = api.Timeouts{ReadHeader: 200 * time.Millisecond} })
	ca := testenv.NewCA(t, "CA")
	cert := ca.ServerCert(t)
	for name, tlsCfg := range map[string]*tls.Config{"HTTP": nil, "HTTPS": {Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}} {
		t.Run(name, func(t *testing.T) {
			addr := serve(t, e.api, tlsCfg)
			stalled, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer stalled.Close()
			if tlsCfg == nil {
				_, _ = stalled.Write([]byte("GET /topics" + q + " HTTP/1.1\r\nHost: x\r\n")) // never ends the headers
			}
			start := time.Now()
			cutOff(t, stalled)
			t.Logf("cut off after %v", time.Since(start).Round(time.Millisecond))
		})
	}
}

// TestHTTPSOnlySubscriptions: with outbound__webhook__httpsOnly an http://
// endpoint is refused when the subscription is created, with the reason.
func TestHTTPSOnlySubscriptions(t *testing.T) {
	f := webhook.NewFactory(webhook.Options{HTTPSOnly: true})
	b, err := broker.New(broker.Config{}, broker.WithFactory(destination.WebHook, f))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		b.Shutdown(ctx)
	})
	a, err := api.New(api.Options{Broker: b, Identity: resource.Identity{Hub: "h", Device: "d", Module: "m"}})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, b: b, api: a}
	e.srv = newHTTPTestServer(t, a)
	e.mustTopic("t", "EventGridSchema")
	r := e.do("PUT", "/topics/t/eventSubscriptions/s"+q,
		`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"http://subscriber/api/events"}}}}`)
	code, detail, msg := errorOf(t, r)
	if r.status != 400 || code != "BadRequest" || detail != "InvalidDestination" || !strings.Contains(msg, "outbound__webhook__httpsOnly") {
		t.Fatalf("got %d %s", r.status, r.body)
	}
	if r := e.do("GET", "/topics/t/eventSubscriptions/s"+q, ""); r.status != http.StatusNotFound {
		t.Fatalf("the refused subscription exists: %d", r.status)
	}
	e.mustSub("t", "s", "https://subscriber/api/events")
}

func newHTTPTestServer(t *testing.T, a *api.Server) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(a)
	t.Cleanup(srv.Close)
	return srv
}
