package auth

import (
	"crypto/x509"
	"errors"
	"net/http"
	"slices"
	"time"
)

// checkCert checks the certificate presented in the handshake; "" means
// success.
func (a *Authenticator) checkCert(r *http.Request) string {
	if r.TLS == nil {
		return reasonNoCertHTTP
	}
	chain := r.TLS.PeerCertificates
	if len(chain) == 0 {
		return reasonNoCert
	}
	leaf, now := chain[0], a.o.Now()
	switch {
	case now.Before(leaf.NotBefore):
		return "the client certificate is not valid before " + leaf.NotBefore.UTC().Format(time.RFC3339)
	case now.After(leaf.NotAfter):
		return "the client certificate expired at " + leaf.NotAfter.UTC().Format(time.RFC3339)
	case !clientUsage(leaf):
		return reasonUsage
	}
	var pool *x509.CertPool
	if a.o.TrustBundle != nil {
		pool = a.o.TrustBundle()
	}
	reason := reasonNoBundle
	if pool != nil {
		reason = a.verifyChain(chain, pool, now)
		if reason == "" {
			return ""
		}
	}
	if a.o.AllowUnknownCA && reason != reasonUsage {
		return ""
	}
	return reason
}

// clientUsage reports whether the leaf may authenticate a client: no
// extended key usage at all, clientAuth, or any.
func clientUsage(c *x509.Certificate) bool {
	return len(c.ExtKeyUsage) == 0 && len(c.UnknownExtKeyUsage) == 0 ||
		slices.Contains(c.ExtKeyUsage, x509.ExtKeyUsageClientAuth) ||
		slices.Contains(c.ExtKeyUsage, x509.ExtKeyUsageAny)
}

// verifyChain checks the chain against the bundle, through the cache; ""
// means it chains.
func (a *Authenticator) verifyChain(chain []*x509.Certificate, roots *x509.CertPool, now time.Time) string {
	key := chainKey(chain)
	if reason, ok := a.chains.lookup(key, roots, now); ok {
		return reason
	}
	inter := x509.NewCertPool()
	for _, c := range chain[1:] {
		inter.AddCert(c)
	}
	chains, err := chain[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter, CurrentTime: now,
		KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}})
	if err == nil {
		a.chains.accept(key, roots, chains[0])
		return ""
	}
	reason := chainError(err)
	a.chains.refuse(key, roots, reason, now)
	return reason
}

// chainError explains a failed verification.
func chainError(err error) string {
	var ua x509.UnknownAuthorityError
	var ci x509.CertificateInvalidError
	switch {
	case errors.As(err, &ua):
		return reasonUnknownCA
	case errors.As(err, &ci) && ci.Reason == x509.IncompatibleUsage:
		return reasonUsage
	default:
		return reasonBadChain
	}
}
