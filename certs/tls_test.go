package certs_test

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/certs"
)

// serveTLS runs an HTTPS server with cfg on loopback and returns its address.
func serveTLS(t *testing.T, cfg *tls.Config) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "ok") }),
		ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(tls.NewListener(ln, cfg)) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ln.Addr().String()
}

// peerSerial makes a request with client and returns the serial of the
// certificate the server presented on that connection.
func peerSerial(t *testing.T, client *http.Client, addr string) string {
	t.Helper()
	resp, err := client.Get("https://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.TLS.PeerCertificates[0].SerialNumber.String()
}

func newClient() *http.Client {
	// The certificates are dated by the test's manual clock, so the client
	// only reads which certificate it got; verification is tested elsewhere.
	return &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1,
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec
}

// TestRenewalKeepsConnections: after a renewal, a connection made before it
// still works (with the old certificate) and a new one gets the new one.
func TestRenewalKeepsConnections(t *testing.T) {
	f := newFixture(t, 24*time.Hour)
	if err := f.r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	addr := serveTLS(t, certs.ServerConfig(f.r.GetCertificate, false))
	kept := newClient()
	first := peerSerial(t, kept, addr)
	f.clock.Advance(20 * time.Hour)
	if got := peerSerial(t, kept, addr); got != first {
		t.Fatalf("the kept-alive connection was replaced: serial %s, want %s", got, first)
	}
	if got := peerSerial(t, newClient(), addr); got == first || got != f.serial(t) {
		t.Fatalf("a new connection got serial %s, want the renewed %s", got, f.serial(t))
	}
}

func TestServerConfigPolicy(t *testing.T) {
	s, err := certs.SelfSigned([]string{"localhost", "127.0.0.1"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	addr := serveTLS(t, certs.ServerConfig(s.GetCertificate, true))
	cases := map[string]struct {
		cfg *tls.Config
		ok  bool
	}{
		"TLS 1.3":                {&tls.Config{MinVersion: tls.VersionTLS13}, true},
		"TLS 1.2 ECDHE GCM":      {&tls.Config{MaxVersion: tls.VersionTLS12, CipherSuites: []uint16{tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256}}, true},
		"TLS 1.2 ChaCha20":       {&tls.Config{MaxVersion: tls.VersionTLS12, CipherSuites: []uint16{tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256}}, true},
		"TLS 1.1":                {&tls.Config{MinVersion: tls.VersionTLS10, MaxVersion: tls.VersionTLS11}, false},
		"TLS 1.2 CBC only":       {&tls.Config{MaxVersion: tls.VersionTLS12, CipherSuites: []uint16{tls.TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA}}, false},
		"P-384 only":             {&tls.Config{CurvePreferences: []tls.CurveID{tls.CurveP384}}, false},
		"X25519 only":            {&tls.Config{CurvePreferences: []tls.CurveID{tls.X25519}}, true},
		"P-256 only, TLS 1.2":    {&tls.Config{MaxVersion: tls.VersionTLS12, CurvePreferences: []tls.CurveID{tls.CurveP256}}, true},
		"no client certificate ": {&tls.Config{}, true}, // requested, not required
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg := tc.cfg.Clone()
			cfg.InsecureSkipVerify = true //nolint:gosec // the policy is under test, not the certificate
			conn, err := tls.Dial("tcp", addr, cfg)
			if err == nil {
				conn.Close()
			}
			if (err == nil) != tc.ok {
				t.Fatalf("handshake error %v, want success %v", err, tc.ok)
			}
		})
	}
}

func TestServerConfigRequestsClientCertificate(t *testing.T) {
	s, err := certs.SelfSigned([]string{"localhost"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, request := range []bool{true, false} {
		asked := false
		addr := serveTLS(t, certs.ServerConfig(s.GetCertificate, request))
		conn, err := tls.Dial("tcp", addr, &tls.Config{InsecureSkipVerify: true, //nolint:gosec
			GetClientCertificate: func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { asked = true; return s.Current(), nil }})
		if err != nil {
			t.Fatal(err)
		}
		_ = conn.Close()
		if asked != request {
			t.Fatalf("requestClientCert=%v: client asked for a certificate: %v", request, asked)
		}
	}
}
