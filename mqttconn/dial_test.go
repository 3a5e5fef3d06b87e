package mqttconn_test

import (
	"crypto/tls"
	"io"
	"net"
	"net/url"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/internal/testenv"
	"github.com/edgegrid/edgegrid/mqttconn"
)

func TestSchemes(t *testing.T) {
	for s, want := range map[string][2]bool{
		"tcp": {true, false}, "MQTT": {true, false}, "ssl": {true, true}, "TLS": {true, true},
		"mqtts": {true, true}, "http": {false, false}, "ws": {false, false}, "": {false, false},
	} {
		if got := [2]bool{mqttconn.KnownScheme(s), mqttconn.IsTLS(s)}; got != want {
			t.Errorf("%q: known, TLS = %v, want %v", s, got, want)
		}
	}
	for in, want := range map[string]string{
		"tcp://b:1883": "mqtt://b:1883", "ssl://b:8883": "mqtts://b:8883", "::": "mqtt://localhost",
	} {
		if got := mqttconn.Source(in); got != want {
			t.Errorf("Source(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestDial connects plainly and over TLS to real listeners, and refuses a
// server certificate the configuration does not trust.
func TestDial(t *testing.T) {
	ca := testenv.NewCA(t, "ca")
	plain := serve(t, nil)
	secure := serve(t, &tls.Config{Certificates: []tls.Certificate{ca.ServerCert(t)}, MinVersion: tls.VersionTLS12})
	check := func(raw string, cfg *tls.Config, ok bool) {
		t.Helper()
		u, _ := url.Parse(raw)
		c, err := mqttconn.Dial(u, 5*time.Second, cfg)
		if (err == nil) != ok {
			t.Fatalf("Dial(%s): %v, want success %v", raw, err, ok)
		}
		if err != nil {
			return
		}
		defer c.Close()
		if _, err := io.ReadFull(c, make([]byte, 2)); err != nil {
			t.Errorf("Dial(%s): reading: %v", raw, err)
		}
	}
	check("tcp://"+plain, nil, true)
	check("ssl://"+secure, testenv.ClientTLS(ca), true)
	check("mqtts://"+secure, nil, false) // the system roots do not know the test CA
}

// serve accepts connections and writes "ok" on each.
func serve(t *testing.T, cfg *tls.Config) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if cfg != nil {
		ln = tls.NewListener(ln, cfg)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_, _ = c.Write([]byte("ok"))
			_ = c.Close()
		}
	}()
	t.Cleanup(func() { _ = ln.Close(); <-done })
	return ln.Addr().String()
}
