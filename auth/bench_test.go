package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/internal/testenv"
)

const benchKey = "TGlrZSB0aGUgY2xvdWQncyBrZXlzLCAzMiBieXRlcy4="

var sink error

// BenchmarkAuthenticate measures one decision per credential kind; the
// request is built once, outside the loop.
func BenchmarkAuthenticate(b *testing.B) {
	ca := testenv.NewCA(b, "Bench CA")
	leaf, _, _ := ca.Issue(b, testenv.LeafOptions{CommonName: "m", Client: true})
	parsed, _ := x509.ParseCertificate(leaf.Certificate[0])
	stranger, _, _ := testenv.NewCA(b, "Bench CA").Issue(b, testenv.LeafOptions{CommonName: "m", Client: true})
	strangerLeaf, _ := x509.ParseCertificate(stranger.Certificate[0])
	pool := ca.Pool() // the trust bundle is one pool until refreshed
	a, err := New(Options{SASKeys: true, Key1: benchKey, ClientCert: true, TrustBundle: func() *x509.CertPool { return pool }})
	if err != nil {
		b.Fatal(err)
	}
	exp := url.QueryEscape(time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
	text := "r=" + url.QueryEscape("https://gw:4438/topics/t") + "&e=" + exp
	k, _ := base64.StdEncoding.DecodeString(benchKey)
	m := hmac.New(sha256.New, k)
	m.Write([]byte(text))
	tok := text + "&s=" + url.QueryEscape(base64.StdEncoding.EncodeToString(m.Sum(nil)))
	other := text + "&s=" + url.QueryEscape(base64.StdEncoding.EncodeToString(make([]byte, sha256.Size)))
	cases := map[string]func(h map[string]string, r *tls.ConnectionState){
		"sas key":            func(h map[string]string, _ *tls.ConnectionState) { h["aeg-sas-key"] = benchKey },
		"sas token":          func(h map[string]string, _ *tls.ConnectionState) { h["aeg-sas-token"] = tok },
		"client certificate": func(_ map[string]string, cs *tls.ConnectionState) { cs.PeerCertificates = []*x509.Certificate{parsed} },
		"refused: nothing":   func(map[string]string, *tls.ConnectionState) {},
		"refused: same-named CA": func(_ map[string]string, cs *tls.ConnectionState) {
			cs.PeerCertificates = []*x509.Certificate{strangerLeaf}
		},
		"refused: wrong key":  func(h map[string]string, _ *tls.ConnectionState) { h["aeg-sas-key"] = "wrong" },
		"refused: bad token":  func(h map[string]string, _ *tls.ConnectionState) { h["aeg-sas-token"] = "r=x&e=1&s=AAAA" },
		"refused: wrong sign": func(h map[string]string, _ *tls.ConnectionState) { h["aeg-sas-token"] = other },
	}
	for name, set := range cases {
		b.Run(name, func(b *testing.B) {
			r := httptest.NewRequest("GET", "/topics/t/events", nil)
			h := map[string]string{}
			r.TLS = &tls.ConnectionState{}
			set(h, r.TLS)
			for k, v := range h {
				r.Header.Set(k, v)
			}
			b.ReportAllocs()
			for b.Loop() {
				sink = a.Authenticate(r)
			}
		})
	}
}

// BenchmarkVerifyUncached is the cost the chain cache saves: one full
// verification of a leaf issued by the bundle's CA.
func BenchmarkVerifyUncached(b *testing.B) {
	ca := testenv.NewCA(b, "Bench CA")
	leaf, _, _ := ca.Issue(b, testenv.LeafOptions{CommonName: "m", Client: true})
	parsed, _ := x509.ParseCertificate(leaf.Certificate[0])
	pool := ca.Pool()
	b.ReportAllocs()
	for b.Loop() {
		a := &Authenticator{}
		if a.verifyChain([]*x509.Certificate{parsed}, pool, time.Now()) != "" {
			b.Fatal("does not verify")
		}
	}
}
