package certs

import (
	"context"
	"crypto/x509"
	"sync/atomic"
)

// FetchBundle obtains the trust bundle (workload.Client.TrustBundle).
type FetchBundle func(ctx context.Context) ([]byte, *x509.CertPool, error)

// Bundle holds the IoT Edge trust bundle: the CAs client certificates and
// subscribers' server certificates are checked against. The zero Bundle
// (outside IoT Edge) holds none. Safe for concurrent use.
type Bundle struct {
	fetch FetchBundle
	pool  atomic.Pointer[x509.CertPool]
}

// NewBundle returns a Bundle that Refresh fills from fetch.
func NewBundle(fetch FetchBundle) *Bundle { return &Bundle{fetch: fetch} }

// Refresh fetches the bundle again. On failure the previous bundle stays.
func (b *Bundle) Refresh(ctx context.Context) error {
	if b.fetch == nil {
		return nil
	}
	_, pool, err := b.fetch(ctx)
	if err != nil {
		return err
	}
	b.pool.Store(pool)
	return nil
}

// Pool returns the current bundle, or nil when there is none. The pool must
// not be modified.
func (b *Bundle) Pool() *x509.CertPool {
	if b == nil {
		return nil
	}
	return b.pool.Load()
}
