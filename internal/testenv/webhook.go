package testenv

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Request is one request a Webhook received.
type Request struct {
	Method string
	Header http.Header
	Body   []byte
	At     time.Time
	// PeerCerts are the client certificates presented over TLS.
	PeerCerts int
	// ClientCert is the leaf the client presented, or nil.
	ClientCert *x509.Certificate
}

// Webhook is a real HTTP(S) subscriber that records every request and answers
// with a scripted status sequence.
type Webhook struct {
	*httptest.Server
	mu       sync.Mutex
	reqs     []Request
	statuses []int // answer i-th request with statuses[i]; then the last one
	hang     chan struct{}
	notify   chan struct{}
	delay    time.Duration
}

// NewWebhook starts a plain HTTP subscriber answering 200.
func NewWebhook(tb testing.TB) *Webhook {
	w := newWebhook()
	w.Server = httptest.NewServer(w)
	tb.Cleanup(w.close)
	return w
}

// NewTLSWebhook starts an HTTPS subscriber with cert (nil: httptest's own
// self-signed certificate) and the given client-auth mode.
func NewTLSWebhook(tb testing.TB, cert *tls.Certificate, clientAuth tls.ClientAuthType) *Webhook {
	w := newWebhook()
	w.Server = httptest.NewUnstartedServer(w)
	w.Server.TLS = &tls.Config{ClientAuth: clientAuth, MinVersion: tls.VersionTLS12}
	if cert != nil {
		w.Server.TLS.Certificates = []tls.Certificate{*cert}
	}
	w.Server.StartTLS()
	tb.Cleanup(w.close)
	return w
}

// NewMTLSWebhook starts an HTTPS subscriber with cert that requires a client
// certificate chaining to clientCAs (mutual TLS).
func NewMTLSWebhook(tb testing.TB, cert tls.Certificate, clientCAs *x509.CertPool) *Webhook {
	w := newWebhook()
	w.Server = httptest.NewUnstartedServer(w)
	w.Server.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, ClientAuth: tls.RequireAndVerifyClientCert,
		ClientCAs: clientCAs, MinVersion: tls.VersionTLS12}
	w.Server.StartTLS()
	tb.Cleanup(w.close)
	return w
}

func newWebhook() *Webhook {
	return &Webhook{statuses: []int{http.StatusOK}, hang: make(chan struct{}), notify: make(chan struct{}, 1)}
}

func (w *Webhook) close() {
	w.Unhang()
	w.Server.CloseClientConnections()
	w.Server.Close()
}

// Script sets the statuses of the next requests; the last one repeats.
func (w *Webhook) Script(statuses ...int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.statuses = append([]int(nil), statuses...)
}

// SetDelay makes the subscriber wait d before answering each request.
func (w *Webhook) SetDelay(d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.delay = d
}

// Hang makes the subscriber hold every request until Unhang or the client gives up.
func (w *Webhook) Hang() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.statuses = []int{-1}
}

// Unhang releases hanging requests (idempotent).
func (w *Webhook) Unhang() {
	w.mu.Lock()
	defer w.mu.Unlock()
	select {
	case <-w.hang:
	default:
		close(w.hang)
	}
}

// ServeHTTP records the request and answers per the script.
func (w *Webhook) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := Request{Method: r.Method, Header: r.Header.Clone(), Body: body, At: time.Now()}
	if r.TLS != nil {
		req.PeerCerts = len(r.TLS.PeerCertificates)
		if req.PeerCerts > 0 {
			req.ClientCert = r.TLS.PeerCertificates[0]
		}
	}
	w.mu.Lock()
	n := len(w.reqs)
	w.reqs = append(w.reqs, req)
	status := w.statuses[len(w.statuses)-1]
	if n < len(w.statuses) {
		status = w.statuses[n]
	}
	delay := w.delay
	w.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
	}
	select {
	case w.notify <- struct{}{}:
	default:
	}
	if status < 0 {
		select {
		case <-w.hang:
		case <-r.Context().Done():
		}
		return
	}
	rw.WriteHeader(status)
}

// Requests returns a copy of what was received so far.
func (w *Webhook) Requests() []Request {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]Request(nil), w.reqs...)
}

// Count is the number of requests received.
func (w *Webhook) Count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.reqs)
}

// WaitCount waits until at least n requests arrived.
func (w *Webhook) WaitCount(tb testing.TB, n int, timeout time.Duration) []Request {
	tb.Helper()
	Eventually(tb, timeout, "webhook requests", func() bool { return w.Count() >= n })
	return w.Requests()
}
