package testenv

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"sync"
	"time"
)

// EventGridAudience is the resource cloud Event Grid tokens are issued for.
const EventGridAudience = "https://eventgrid.azure.net"

// IssuedToken is one access token a token double handed out.
type IssuedToken struct {
	Token    string
	ClientID string // the principal it was issued to ("" for a system-assigned managed identity)
	Audience string
	Via      string // secret, certificate, federated or managedIdentity
	Issued   time.Time
	Expires  time.Time
}

// Tokens is the registry shared by the Entra ID and managed identity doubles
// and the cloud Event Grid double, which accepts a bearer token only if a
// double issued it for EventGridAudience and it has not expired.
type Tokens struct {
	mu      sync.Mutex
	issued  map[string]IssuedToken
	order   []string
	revoked bool
}

// NewTokens returns an empty registry.
func NewTokens() *Tokens { return &Tokens{issued: map[string]IssuedToken{}} }

// issue records a new random token.
func (t *Tokens) issue(clientID, audience, via string, lifetime time.Duration) IssuedToken {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	now := time.Now()
	it := IssuedToken{Token: "test-token-" + hex.EncodeToString(b), ClientID: clientID, Audience: audience, Via: via,
		Issued: now, Expires: now.Add(lifetime)}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.issued[it.Token] = it
	t.order = append(t.order, it.Token)
	return it
}

// Errors of Check.
var (
	ErrUnknownToken  = errors.New("the token was not issued by the test authority")
	ErrTokenExpired  = errors.New("the token has expired")
	ErrWrongAudience = errors.New("the token is not for " + EventGridAudience)
	ErrTokenRevoked  = errors.New("the token has been revoked")
)

// Check returns the token's record if it may be used now.
func (t *Tokens) Check(token string) (IssuedToken, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	it, ok := t.issued[token]
	switch {
	case !ok:
		return it, ErrUnknownToken
	case t.revoked:
		return it, ErrTokenRevoked
	case !time.Now().Before(it.Expires):
		return it, ErrTokenExpired
	case it.Audience != EventGridAudience:
		return it, ErrWrongAudience
	}
	return it, nil
}

// Revoke makes every token issued so far, and later, unacceptable.
func (t *Tokens) Revoke() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.revoked = true
}

// Issued returns every token handed out, oldest first.
func (t *Tokens) Issued() []IssuedToken {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]IssuedToken, len(t.order))
	for i, k := range t.order {
		out[i] = t.issued[k]
	}
	return out
}
