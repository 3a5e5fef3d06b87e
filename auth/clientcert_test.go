package auth_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/auth"
	"github.com/edgegrid/edgegrid/internal/testenv"
	"github.com/edgegrid/edgegrid/workload"
)

// TestClientCertificates: certificates are checked per request against the
// IoT Edge trust bundle, with the original's 401 body on refusal.
func TestClientCertificates(t *testing.T) {
	wl := testenv.NewWorkload(t)
	wc, err := workload.New(workload.Options{URI: wl.URI, ModuleID: wl.ModuleID, GenerationID: wl.GenerationID})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, bundle, err := wc.TrustBundle(ctx)
	if err != nil {
		t.Fatal(err)
	}
	edgeIssued, err := wc.IdentityCert(ctx, time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	foreign := testenv.NewCA(t, "Someone else's CA")
	unknown, _, _ := foreign.Issue(t, testenv.LeafOptions{CommonName: "stranger", Client: true})
	expired, _, _ := wl.CA.Issue(t, testenv.LeafOptions{CommonName: "old", Client: true,
		NotBefore: time.Now().Add(-48 * time.Hour), NotAfter: time.Now().Add(-time.Hour)})
	expiredUnknown, _, _ := foreign.Issue(t, testenv.LeafOptions{CommonName: "old stranger", Client: true,
		NotBefore: time.Now().Add(-48 * time.Hour), NotAfter: time.Now().Add(-time.Hour)})
	future, _, _ := wl.CA.Issue(t, testenv.LeafOptions{CommonName: "early", Client: true,
		NotBefore: time.Now().Add(time.Hour), NotAfter: time.Now().Add(2 * time.Hour)})
	serverOnly, _, _ := wl.CA.Issue(t, testenv.LeafOptions{CommonName: "a server"})

	cases := map[string]struct {
		cert      *tls.Certificate
		allowUnkn bool
		msg       string // "" means 200
	}{
		"IoT Edge-issued":                      {&edgeIssued.TLS, false, ""},
		"IoT Edge-issued, unknown CAs allowed": {&edgeIssued.TLS, true, ""},
		"unknown CA, allowed":                  {&unknown, true, ""},
		"unknown CA, not allowed":              {&unknown, false, `^The client certificate is not issued by a CA in the IoT Edge trust bundle`},
		"expired":                              {&expired, true, `^The client certificate expired at 20`},
		"expired, unknown CA":                  {&expiredUnknown, true, `expired at`},
		"not yet valid":                        {&future, true, `not valid before`},
		"server-only usage":                    {&serverOnly, true, `not valid for client authentication`},
		"none":                                 {nil, true, `^No client certificate was presented\.$`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := newServer(t, auth.Options{ClientCert: true, AllowUnknownCA: tc.allowUnkn, TrustBundle: func() *x509.CertPool { return bundle }})
			r := do(t, s.client(tc.cert), "GET", s.https+"/topics"+q)
			if tc.msg == "" {
				if r.status != 200 {
					t.Fatalf("got %d %s, want 200", r.status, r.body)
				}
				return
			}
			want401(t, r, tc.msg)
		})
	}
}

// TestClientCertificateTransport: plain HTTP cannot carry a certificate, the
// health routes need none, and without a bundle only unknown CAs could pass.
func TestClientCertificateTransport(t *testing.T) {
	s := newServer(t, auth.Options{ClientCert: true, AllowUnknownCA: false})
	plain := &http.Client{Timeout: 5 * time.Second}
	want401(t, do(t, plain, "GET", s.http+"/topics"+q), `^No client certificate can be presented over plain HTTP`)
	for _, path := range []string{"/api/health", "/healthz", "/readyz"} {
		if r := do(t, plain, "GET", s.http+path); r.status != 200 {
			t.Errorf("%s over HTTP: %d", path, r.status)
		}
		if r := do(t, s.client(nil), "GET", s.https+path); r.status != 200 {
			t.Errorf("%s over HTTPS without a certificate: %d", path, r.status)
		}
	}
	stranger, _, _ := testenv.NewCA(t, "CA").Issue(t, testenv.LeafOptions{CommonName: "x", Client: true})
	want401(t, do(t, s.client(&stranger), "GET", s.https+"/topics"+q), `there is no trust bundle outside IoT Edge`)
}

// TestVerifiedChainsFollowTheBundle: a chain accepted once (and cached) is
// refused after the bundle changes to one that does not hold its CA, and
// accepted again by concurrent requests once the CA is back.
func TestVerifiedChainsFollowTheBundle(t *testing.T) {
	ca, other := testenv.NewCA(t, "Edge CA"), testenv.NewCA(t, "New Edge CA")
	cert, _, _ := ca.Issue(t, testenv.LeafOptions{CommonName: "m", Client: true})
	leaf, _ := x509.ParseCertificate(cert.Certificate[0])
	var current atomic.Pointer[x509.CertPool]
	current.Store(ca.Pool())
	a, err := auth.New(auth.Options{ClientCert: true, TrustBundle: current.Load})
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("GET", "/topics", nil)
	req.TLS = &tls.ConnectionState{PeerCertificates: []*x509.Certificate{leaf}}
	for range 2 {
		if err := a.Authenticate(req); err != nil {
			t.Fatal(err)
		}
	}
	current.Store(other.Pool())
	if err := a.Authenticate(req); !errors.Is(err, auth.ErrUnauthorized) {
		t.Fatalf("accepted against a bundle without its CA: %v", err)
	}
	current.Store(ca.Pool())
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if err := a.Authenticate(req); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}
