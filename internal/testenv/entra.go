package testenv

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Entra is a local Microsoft Entra ID authority over TLS for one tenant and
// one application, speaking what MSAL (under azidentity) calls for the client
// credentials grant: GET /{tenant}/v2.0/.well-known/openid-configuration and
// POST /{tenant}/oauth2/v2.0/token. The application may authenticate with a
// secret, a certificate (a signed client assertion, checked) or a federated
// token (workload identity). Tokens go into a Tokens registry the cloud Event
// Grid double checks. Credentials pointing at it need its Authority,
// DisableInstanceDiscovery, and a transport trusting its CA (Client).
type Entra struct {
	Server    *httptest.Server
	Authority string // https://127.0.0.1:port/
	Tenant    string
	ClientID  string
	Tokens    *Tokens
	ca        *CA

	mu        sync.Mutex
	secret    string
	cert      *x509.Certificate
	federated string
	lifetime  time.Duration
	refreshIn *time.Duration
	script    []int
	requests  []map[string][]string
}

// NewEntra starts the authority with a server certificate from ca. Tokens
// live an hour unless SetLifetime says otherwise.
func NewEntra(tb testing.TB, ca *CA, tokens *Tokens, tenant, clientID string) *Entra {
	e := &Entra{Tenant: tenant, ClientID: clientID, Tokens: tokens, ca: ca, lifetime: time.Hour}
	cert := ca.ServerCert(tb)
	e.Server = httptest.NewUnstartedServer(e)
	e.Server.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	e.Server.StartTLS()
	e.Authority = e.Server.URL + "/"
	tb.Cleanup(e.Server.Close)
	return e
}

// Client is an HTTP client trusting the authority's CA (for azidentity's
// ClientOptions.Transport).
func (e *Entra) Client() *http.Client {
	return &http.Client{Transport: &http.Transport{TLSClientConfig: ClientTLS(e.ca)}}
}

// SetSecret accepts the client secret s.
func (e *Entra) SetSecret(s string) { e.with(func() { e.secret = s }) }

// SetCertificate accepts client assertions signed by cert's key.
func (e *Entra) SetCertificate(cert *x509.Certificate) { e.with(func() { e.cert = cert }) }

// SetFederatedToken accepts the federated token tok as client assertion.
func (e *Entra) SetFederatedToken(tok string) { e.with(func() { e.federated = tok }) }

// SetLifetime sets expires_in of later tokens. Below five minutes, MSAL
// considers a cached token expired and fetches a new one for every request.
func (e *Entra) SetLifetime(d time.Duration) { e.with(func() { e.lifetime = d }) }

// SetRefreshIn adds refresh_in to later token responses: the time after
// which MSAL refreshes a token proactively although it is still valid.
func (e *Entra) SetRefreshIn(d time.Duration) { e.with(func() { e.refreshIn = &d }) }

// Script makes the next token requests answer these statuses (5xx, 429...)
// with an error body, before normal service resumes.
func (e *Entra) Script(statuses ...int) {
	e.with(func() { e.script = append([]int(nil), statuses...) })
}

// TokenRequests returns the forms of the token requests received so far.
func (e *Entra) TokenRequests() []map[string][]string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]map[string][]string(nil), e.requests...)
}

func (e *Entra) with(f func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	f()
}

// ServeHTTP routes the two endpoints MSAL uses.
func (e *Entra) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	base := "/" + e.Tenant
	switch {
	case r.Method == http.MethodGet && r.URL.Path == base+"/v2.0/.well-known/openid-configuration":
		e.openIDConfiguration(w)
	case r.Method == http.MethodPost && r.URL.Path == base+"/oauth2/v2.0/token":
		e.token(w, r)
	default:
		oauthError(w, http.StatusNotFound, "invalid_request", "AADSTS90002: Tenant or endpoint '"+r.URL.Path+"' not found.")
	}
}

func (e *Entra) tokenEndpoint() string { return e.Server.URL + "/" + e.Tenant + "/oauth2/v2.0/token" }

// openIDConfiguration is the tenant discovery document; its issuer's host
// must equal the authority's, which MSAL checks.
func (e *Entra) openIDConfiguration(w http.ResponseWriter) {
	writeJSON(w, http.StatusOK, map[string]any{
		"token_endpoint":                        e.tokenEndpoint(),
		"authorization_endpoint":                e.Server.URL + "/" + e.Tenant + "/oauth2/v2.0/authorize",
		"issuer":                                e.Server.URL + "/" + e.Tenant + "/v2.0",
		"token_endpoint_auth_methods_supported": []string{"client_secret_post", "private_key_jwt", "client_secret_basic"},
		"response_types_supported":              []string{"code", "id_token", "code id_token", "id_token token"},
		"tenant_region_scope":                   "EU",
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// oauthError writes an Entra ID error body (RFC 6749 §5.2 plus AADSTS codes).
func oauthError(w http.ResponseWriter, status int, code, description string) {
	writeJSON(w, status, map[string]any{"error": code,
		"error_description": description + "\r\nTrace ID: 00000000-0000-0000-0000-000000000000\r\nTimestamp: " + time.Now().UTC().Format(time.DateTime) + "Z"})
}

func hasScope(scopes, want string) bool {
	for _, s := range strings.Fields(scopes) {
		if s == want {
			return true
		}
	}
	return false
}
