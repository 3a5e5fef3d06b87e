package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"strings"
)

// Header names.
const (
	headerKey   = "aeg-sas-key"
	headerToken = "aeg-sas-token"
	schemeSAS   = "SharedAccessSignature"
)

// keyring holds the configured keys as SHA-256 digests (for aeg-sas-key) and
// as HMAC keys (for tokens).
type keyring struct {
	digests [][sha256.Size]byte
	macKeys [][]byte
}

func newKeyring(keys ...string) keyring {
	var k keyring
	for _, key := range keys {
		if key == "" {
			continue
		}
		k.digests = append(k.digests, sha256.Sum256([]byte(key)))
		mk, err := base64.StdEncoding.DecodeString(key)
		if err != nil || len(mk) == 0 {
			mk = []byte(key) // not base64: the key's own bytes
		}
		k.macKeys = append(k.macKeys, mk)
	}
	return k
}

// matchKey compares v with every key in constant time.
func (k keyring) matchKey(v string) bool {
	d := sha256.Sum256([]byte(v))
	ok := 0
	for _, kd := range k.digests {
		ok |= subtle.ConstantTimeCompare(d[:], kd[:])
	}
	return ok == 1
}

// matchSignature reports whether sig is HMAC-SHA256 of signed under a key.
func (k keyring) matchSignature(signed string, sig []byte) bool {
	ok := false
	for _, mk := range k.macKeys {
		m := hmac.New(sha256.New, mk)
		m.Write([]byte(signed))
		ok = hmac.Equal(m.Sum(nil), sig) || ok
	}
	return ok
}

// checkSAS tries the key header, then the token headers; "" means success.
func (a *Authenticator) checkSAS(r *http.Request) string {
	var reasons []string
	if v := r.Header.Get(headerKey); v != "" {
		if a.keys.matchKey(v) {
			return ""
		}
		reasons = append(reasons, reasonKeyMismatch)
	}
	for _, tok := range tokens(r) {
		reason := a.checkToken(tok, r.URL.Path)
		if reason == "" {
			return ""
		}
		reasons = append(reasons, reason)
	}
	if len(reasons) == 0 {
		return reasonNoSAS
	}
	return strings.Join(reasons, ", and ")
}

// tokens returns the SAS tokens a request carries: aeg-sas-token, then an
// Authorization header of scheme SharedAccessSignature (any case). Other
// Authorization schemes are not ours and are ignored.
func tokens(r *http.Request) []string {
	var out []string
	if v := r.Header.Get(headerToken); v != "" {
		out = append(out, v)
	}
	if v := r.Header.Get("Authorization"); v != "" {
		scheme, rest, _ := strings.Cut(strings.TrimSpace(v), " ")
		if strings.EqualFold(scheme, schemeSAS) {
			out = append(out, strings.TrimSpace(rest))
		}
	}
	return out
}
