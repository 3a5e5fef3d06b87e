package testenv

import (
	"crypto/subtle"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"
)

// ManagedIdentity is a local managed identity endpoint speaking the App
// Service protocol (api-version 2019-08-01), which MSAL selects when both
// IDENTITY_ENDPOINT and IDENTITY_HEADER are set:
//
//	GET {IDENTITY_ENDPOINT}?api-version=2019-08-01&resource=https://eventgrid.azure.net[&client_id=…]
//	X-IDENTITY-HEADER: {IDENTITY_HEADER}
//	→ {"access_token","expires_on":"<unix seconds>","resource","token_type":"Bearer"}
//
// Plain HTTP on loopback, as on the real hosts. Tokens go into the shared
// registry.
type ManagedIdentity struct {
	Server *httptest.Server
	Header string // the IDENTITY_HEADER secret
	Tokens *Tokens

	mu       sync.Mutex
	lifetime time.Duration
	requests []*http.Request
}

// NewManagedIdentity starts the endpoint. Tokens live an hour.
func NewManagedIdentity(tb testing.TB, tokens *Tokens) *ManagedIdentity {
	m := &ManagedIdentity{Header: "identity-header-secret", Tokens: tokens, lifetime: time.Hour}
	m.Server = httptest.NewServer(m)
	tb.Cleanup(m.Server.Close)
	return m
}

// Endpoint is the IDENTITY_ENDPOINT value.
func (m *ManagedIdentity) Endpoint() string { return m.Server.URL + "/msi/token" }

// Env returns IDENTITY_ENDPOINT and IDENTITY_HEADER as KEY=VALUE entries.
func (m *ManagedIdentity) Env() []string {
	return []string{"IDENTITY_ENDPOINT=" + m.Endpoint(), "IDENTITY_HEADER=" + m.Header}
}

// SetLifetime sets the lifetime of later tokens.
func (m *ManagedIdentity) SetLifetime(d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lifetime = d
}

// Requests returns the token requests received so far.
func (m *ManagedIdentity) Requests() []*http.Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*http.Request(nil), m.requests...)
}

// ServeHTTP answers token requests.
func (m *ManagedIdentity) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m.mu.Lock()
	m.requests = append(m.requests, r.Clone(r.Context()))
	lifetime := m.lifetime
	m.mu.Unlock()
	q := r.URL.Query()
	switch {
	case r.Method != http.MethodGet || r.URL.Path != "/msi/token":
		writeJSON(w, http.StatusNotFound, map[string]any{"statusCode": 404, "message": "not found"})
	case subtle.ConstantTimeCompare([]byte(r.Header.Get("X-IDENTITY-HEADER")), []byte(m.Header)) != 1:
		writeJSON(w, http.StatusUnauthorized, map[string]any{"statusCode": 401, "message": "X-IDENTITY-HEADER is missing or wrong"})
	case q.Get("api-version") != "2019-08-01":
		writeJSON(w, http.StatusBadRequest, map[string]any{"statusCode": 400, "message": "api-version 2019-08-01 is required"})
	case q.Get("resource") == "":
		writeJSON(w, http.StatusBadRequest, map[string]any{"statusCode": 400, "message": "resource is required"})
	default:
		it := m.Tokens.issue(q.Get("client_id"), q.Get("resource"), "managedIdentity", lifetime)
		writeJSON(w, http.StatusOK, map[string]any{"access_token": it.Token, "token_type": "Bearer",
			"expires_on": strconv.FormatInt(it.Expires.Unix(), 10), "resource": q.Get("resource"), "client_id": q.Get("client_id")})
	}
}
