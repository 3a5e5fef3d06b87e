package auth

import (
	"encoding/base64"
	"errors"
	"net/url"
	"strings"
	"time"
)

// maxTokenBytes bounds a SAS token; real ones are a few hundred bytes.
const maxTokenBytes = 4096

// token is a parsed SAS token.
type token struct {
	rawR, rawE string // as sent (URL-encoded): the signed text is built from them
	resource   string // decoded
	expiry     time.Time
	sig        []byte
}

// Token syntax errors; their texts complete "the SAS token is malformed: ".
var (
	errTokenField  = errors.New("each part must be r=, e= or s= followed by a URL-encoded value")
	errTokenRepeat = errors.New("a part appears twice")
	errTokenMiss   = errors.New("it needs r (resource), e (expiry) and s (signature)")
	errTokenEscape = errors.New("a part is not validly URL-encoded")
	errTokenSig    = errors.New("s is not base64")
	errTokenExpiry = errors.New("e is not a date and time in a known format")
)

// parseToken parses r=…&e=…&s=… in any order; other parts are ignored (they
// are not signed). It does no cryptography.
func parseToken(s string) (token, error) {
	var t token
	var sig string
	seen := map[byte]bool{}
	for part := range strings.SplitSeq(s, "&") {
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		if !ok || k == "" {
			return t, errTokenField
		}
		if len(k) != 1 || !strings.Contains("res", k) {
			continue
		}
		if seen[k[0]] {
			return t, errTokenRepeat
		}
		seen[k[0]] = true
		switch k {
		case "r":
			t.rawR = v
		case "e":
			t.rawE = v
		default:
			sig = v
		}
	}
	if !seen['r'] || !seen['e'] || !seen['s'] || t.rawR == "" || t.rawE == "" || sig == "" {
		return t, errTokenMiss
	}
	return t.decode(sig)
}

// decode fills the decoded fields from the raw ones.
func (t token) decode(rawSig string) (token, error) {
	var err error
	if t.resource, err = url.QueryUnescape(t.rawR); err != nil {
		return t, errTokenEscape
	}
	e, err := url.QueryUnescape(t.rawE)
	if err != nil {
		return t, errTokenEscape
	}
	sig, err := url.QueryUnescape(rawSig)
	if err != nil {
		return t, errTokenEscape
	}
	// An unencoded '+' arrives as a space; base64 has no spaces.
	if t.sig, err = base64.StdEncoding.DecodeString(strings.ReplaceAll(sig, " ", "+")); err != nil {
		return t, errTokenSig
	}
	if t.expiry, err = parseExpiry(e); err != nil {
		return t, errTokenExpiry
	}
	return t, nil
}

// signed is the text the signature covers.
func (t token) signed() string { return "r=" + t.rawR + "&e=" + t.rawE }

// checkToken validates a token for a request path; "" means success. The
// cheap checks (size, syntax, expiry, resource) come before any HMAC.
func (a *Authenticator) checkToken(s, path string) string {
	if len(s) > maxTokenBytes {
		return reasonTokenTooLong
	}
	t, err := parseToken(s)
	if err != nil {
		return reasonTokenMalform + err.Error()
	}
	if !a.o.Now().Before(t.expiry) {
		return reasonTokenExpired + t.expiry.UTC().Format(time.RFC3339)
	}
	if !covers(t.resource, path) {
		return reasonTokenResource
	}
	if !a.keys.matchSignature(t.signed(), t.sig) {
		return reasonTokenSig
	}
	return ""
}
