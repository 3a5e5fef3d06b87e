package auth

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/binary"
	"sync"
	"time"
)

// maxCachedChains bounds the cache; far more distinct client chains than a
// gateway's modules present. When full it is emptied and refilled.
const maxCachedChains = 1024

// chainCache remembers chains that verified against a trust bundle, so the
// requests of a kept-alive connection, and clients that reconnect, do not
// repeat the signature checks (≈0.3 ms per request otherwise). An entry
// counts only for the same bundle (a refreshed bundle is a new pool) and
// until the first certificate of its verified chain expires. Refusals are not
// cached: they are cheap (see checkCert). Safe for concurrent use.
type chainCache struct {
	mu sync.Mutex
	m  map[[sha256.Size]byte]chainEntry
}

type chainEntry struct {
	pool  *x509.CertPool
	until time.Time
}

// chainKey is the SHA-256 of the presented chain, each certificate
// length-prefixed.
func chainKey(chain []*x509.Certificate) [sha256.Size]byte {
	h := sha256.New()
	var n [4]byte
	for _, c := range chain {
		binary.BigEndian.PutUint32(n[:], uint32(len(c.Raw)))
		h.Write(n[:])
		h.Write(c.Raw)
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// verified reports whether key verified against pool and is still in date.
func (c *chainCache) verified(key [sha256.Size]byte, pool *x509.CertPool, now time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	return ok && e.pool == pool && now.Before(e.until)
}

// add records a chain that verified against pool, valid until the earliest
// expiry in verified.
func (c *chainCache) add(key [sha256.Size]byte, pool *x509.CertPool, verified []*x509.Certificate) {
	until := verified[0].NotAfter
	for _, v := range verified[1:] {
		if v.NotAfter.Before(until) {
			until = v.NotAfter
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCachedChains {
		c.m = make(map[[sha256.Size]byte]chainEntry)
	}
	c.m[key] = chainEntry{pool: pool, until: until}
}
