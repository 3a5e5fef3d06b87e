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

// chainCache remembers how chains fared against a trust bundle, so the
// requests of a kept-alive connection, and clients that reconnect, do not
// repeat the signature checks (0.1–0.3 ms per request otherwise, more than a
// whole publish request). An entry counts only for the same bundle (a
// refreshed bundle is a new pool); an accepted chain until the first of its
// certificates expires, a refused one for refusalTTL. Safe for concurrent
// use.
type chainCache struct {
	mu sync.Mutex
	m  map[[sha256.Size]byte]chainEntry
}

type chainEntry struct {
	pool   *x509.CertPool
	until  time.Time
	reason string // "" for a chain that verified
}

// refusalTTL bounds how long a refusal is remembered: a chain refused for a
// not-yet-valid intermediate may become valid.
const refusalTTL = time.Minute

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

// lookup returns the remembered outcome for key against pool ("" for
// verified) and whether there is one.
func (c *chainCache) lookup(key [sha256.Size]byte, pool *x509.CertPool, now time.Time) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	if !ok || e.pool != pool || !now.Before(e.until) {
		return "", false
	}
	return e.reason, true
}

// accept records a chain that verified against pool, until the earliest
// expiry in verified.
func (c *chainCache) accept(key [sha256.Size]byte, pool *x509.CertPool, verified []*x509.Certificate) {
	until := verified[0].NotAfter
	for _, v := range verified[1:] {
		if v.NotAfter.Before(until) {
			until = v.NotAfter
		}
	}
	c.put(key, chainEntry{pool: pool, until: until})
}

// refuse records a chain refused against pool, for refusalTTL.
func (c *chainCache) refuse(key [sha256.Size]byte, pool *x509.CertPool, reason string, now time.Time) {
	c.put(key, chainEntry{pool: pool, until: now.Add(refusalTTL), reason: reason})
}

func (c *chainCache) put(key [sha256.Size]byte, e chainEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCachedChains {
		c.m = make(map[[sha256.Size]byte]chainEntry)
	}
	c.m[key] = e
}
