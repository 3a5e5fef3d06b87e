package auth

import (
	"crypto/x509"
	"errors"
	"net/http"
	"time"
)

// Options configure an Authenticator (the inbound__clientAuth__* settings).
type Options struct {
	// ClientCert is inbound__clientAuth__clientCert__enabled.
	ClientCert bool
	// AllowUnknownCA is inbound__clientAuth__clientCert__allowUnknownCA.
	AllowUnknownCA bool
	// TrustBundle returns the CAs client certificates must chain to (the IoT
	// Edge trust bundle, which can change at run time); nil, or a nil pool,
	// means there is none.
	TrustBundle func() *x509.CertPool
	// SASKeys is inbound__clientAuth__sasKeys__enabled; Key1 and Key2 are the
	// accepted keys (empty: not set). At least one is required when SASKeys.
	SASKeys    bool
	Key1, Key2 string
	// Now is the time for validity checks; nil means time.Now.
	Now func() time.Time
}

// Authenticator implements the API's Authenticator hook. Safe for
// concurrent use; its only state is a cache of verified certificate chains.
type Authenticator struct {
	o      Options
	keys   keyring
	chains chainCache
}

// New checks o and prepares the keys.
func New(o Options) (*Authenticator, error) {
	if o.SASKeys && o.Key1 == "" && o.Key2 == "" {
		return nil, errors.New("invalid config: auth: SAS keys are enabled but neither key is set")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	a := &Authenticator{o: o}
	if o.SASKeys {
		a.keys = newKeyring(o.Key1, o.Key2)
	}
	return a, nil
}

// Enabled reports whether any mechanism is on; when none is, every request
// is allowed.
func (a *Authenticator) Enabled() bool { return a.o.SASKeys || a.o.ClientCert }

// Authenticate returns nil when the request carries a valid credential (or
// no mechanism is enabled), else an *Error. It does no I/O. The costliest
// work, verifying a certificate chain's signatures, is done once per chain
// and bundle (see chainCache); every other path takes microseconds.
func (a *Authenticator) Authenticate(r *http.Request) error {
	if !a.Enabled() {
		return nil
	}
	var reasons []string
	if a.o.SASKeys {
		reason := a.checkSAS(r)
		if reason == "" {
			return nil
		}
		reasons = append(reasons, reason)
	}
	if a.o.ClientCert {
		reason := a.checkCert(r)
		if reason == "" {
			return nil
		}
		reasons = append(reasons, reason)
	}
	return &Error{Reasons: reasons}
}
