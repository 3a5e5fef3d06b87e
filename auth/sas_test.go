package auth_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/auth"
)

// TestSASKeysAndTokens: aeg-sas-key against key1 and key2, and SAS tokens
// in the cloud's forms, each refusal with its own explanation.
func TestSASKeysAndTokens(t *testing.T) {
	s := newServer(t, auth.Options{SASKeys: true, Key1: key1, Key2: key2})
	c := s.client(nil)
	res := s.https + "/topics/t"
	soon := time.Now().Add(time.Hour).UTC()
	rfc := soon.Format(time.RFC3339)
	us := soon.Format("1/2/2006 3:04:05 PM")
	past := time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)
	valid := sdkToken(res, key1, rfc)
	cases := map[string]struct {
		headers []string
		msg     string // "" means 200
	}{
		"key1":                         {[]string{"aeg-sas-key", key1}, ""},
		"key2":                         {[]string{"aeg-sas-key", key2}, ""},
		"wrong key":                    {[]string{"aeg-sas-key", otherKey}, `^The aeg-sas-key header matches no configured key\.$`},
		"key1 with a space":            {[]string{"aeg-sas-key", key1 + " x"}, `matches no configured key`},
		"nothing":                      {nil, `^No SAS key \(aeg-sas-key header\) or SAS token`},
		"token, Go SDK form":           {[]string{"aeg-sas-token", valid}, ""},
		"token signed with key2":       {[]string{"aeg-sas-token", sdkToken(res, key2, rfc)}, ""},
		"token, .NET form":             {[]string{"aeg-sas-token", dotnetToken(res+"?api-version=2018-01-01", key1, us)}, ""},
		"token in Authorization":       {[]string{"Authorization", "SharedAccessSignature " + valid}, ""},
		"token for the whole module":   {[]string{"aeg-sas-token", sdkToken("https://eventgridmodule:4438/", key1, rfc)}, ""},
		"token by another host name":   {[]string{"aeg-sas-token", sdkToken("https://mygateway.local:4438/Topics/T", key1, rfc)}, ""},
		"expired token":                {[]string{"aeg-sas-token", sdkToken(res, key1, past)}, `^The SAS token expired at 20`},
		"token signed with another":    {[]string{"aeg-sas-token", sdkToken(res, otherKey, rfc)}, `^The SAS token's signature matches no configured key\.$`},
		"token for another topic":      {[]string{"aeg-sas-token", sdkToken(s.https+"/topics/u", key1, rfc)}, `resource does not cover this path`},
		"token, tampered expiry":       {[]string{"aeg-sas-token", strings.Replace(valid, "e=20", "e=21", 1)}, `signature matches no configured key`},
		"malformed token":              {[]string{"aeg-sas-token", "not a token"}, `^The SAS token is malformed: each part must be`},
		"token without signature":      {[]string{"aeg-sas-token", valid[:strings.Index(valid, "&s=")]}, `malformed: it needs r \(resource\), e \(expiry\) and s`},
		"token with a bad date":        {[]string{"aeg-sas-token", sdkToken(res, key1, "next week")}, `malformed: e is not a date`},
		"oversized token":              {[]string{"aeg-sas-token", valid + "&x=" + strings.Repeat("a", 5000)}, `longer than 4096 bytes`},
		"bearer is not ours":           {[]string{"Authorization", "Bearer " + valid}, `^No SAS key`},
		"wrong key, then a good token": {[]string{"aeg-sas-key", otherKey, "aeg-sas-token", valid}, ""},
		"wrong key and a bad token":    {[]string{"aeg-sas-key", otherKey, "aeg-sas-token", sdkToken(res, key1, past)}, `^The aeg-sas-key header matches no configured key, and the SAS token expired`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := do(t, c, "GET", s.https+"/topics/t"+q, tc.headers...)
			if tc.msg == "" {
				if r.status != 200 {
					t.Fatalf("got %d %s, want 200", r.status, r.body)
				}
				return
			}
			want401(t, r, tc.msg, otherKey, key1, key2, valid)
		})
	}
}

// TestSASOverPlainHTTP: a SAS key works where no certificate can.
func TestSASOverPlainHTTP(t *testing.T) {
	s := newServer(t, auth.Options{SASKeys: true, Key1: key1, ClientCert: true})
	plain := &http.Client{Timeout: 5 * time.Second}
	if r := do(t, plain, "GET", s.http+"/topics"+q, "aeg-sas-key", key1); r.status != 200 {
		t.Fatalf("SAS key over HTTP: %d %s", r.status, r.body)
	}
	want401(t, do(t, plain, "GET", s.http+"/topics"+q, "aeg-sas-key", otherKey),
		`^The aeg-sas-key header matches no configured key, and no client certificate can be presented over plain HTTP`, otherKey)
}

// TestOversizedHeaders: a header block beyond the server's limit is refused
// by the HTTP server before any authentication work.
func TestOversizedHeaders(t *testing.T) {
	s := newServer(t, auth.Options{SASKeys: true, Key1: key1})
	r := do(t, s.client(nil), "GET", s.https+"/topics"+q, "aeg-sas-token", strings.Repeat("r", 70<<10))
	if r.status != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("got %d, want 431", r.status)
	}
}

// TestNoMechanism: with both mechanisms off every request passes.
func TestNoMechanism(t *testing.T) {
	s := newServer(t, auth.Options{})
	if r := do(t, &http.Client{}, "GET", s.http+"/topics"+q); r.status != 200 {
		t.Fatalf("got %d %s", r.status, r.body)
	}
}

func TestNewRefusesSASWithoutKeys(t *testing.T) {
	if _, err := auth.New(auth.Options{SASKeys: true}); err == nil {
		t.Fatal("SAS keys enabled with no key accepted")
	}
}
