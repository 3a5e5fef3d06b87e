package auth

import (
	"strings"
	"testing"
)

// FuzzParseToken: any header value parses or fails cleanly; a parsed token's
// signed text is made of what was sent, and the expiry format is one we know.
func FuzzParseToken(f *testing.F) {
	for _, s := range []string{
		"r=https%3A%2F%2Fgw%3A4438%2Ftopics%2Ft&e=2027-06-15T18%3A20%3A05Z&s=c2lnbmF0dXJl",
		"r=https%3a%2f%2fgw%2ftopics%2ft&e=6%2f15%2f2027+6%3a20%3a15+PM&s=AAAA",
		"s=AAAA&e=1813090805&r=%2F", "r=x&e=&s=", "&&&", "r=%", "e=6/15/2027 6:20:5 PM +02:00&r=/&s=++++",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tok, err := parseToken(s)
		if err != nil {
			return
		}
		if !strings.Contains(s, "r="+tok.rawR) || !strings.Contains(s, "e="+tok.rawE) || tok.expiry.IsZero() {
			t.Fatalf("parsed %q into %+v", s, tok)
		}
		_ = covers(tok.resource, "/topics/t/events")
	})
}

// FuzzParseExpiry: never panics; success gives a non-zero time.
func FuzzParseExpiry(f *testing.F) {
	for _, s := range []string{"2027-06-15T18:20:05Z", "6/15/2027 6:20:05 PM +00:00", "1813090805", "2027-06-15 18:20:05"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if tm, err := parseExpiry(s); err == nil && tm.IsZero() {
			t.Fatalf("parseExpiry(%q) gave the zero time", s)
		}
	})
}
