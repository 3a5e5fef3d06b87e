package auth

import (
	"testing"
	"time"
)

func TestParseExpiry(t *testing.T) {
	want := time.Date(2027, 6, 15, 18, 20, 5, 0, time.UTC)
	cases := map[string]string{
		"Go SDK (RFC 3339)":              "2027-06-15T18:20:05Z",
		"RFC 3339 with offset":           "2027-06-15T20:20:05+02:00",
		"docs' Python sample (naive)":    "2027-06-15T18:20:05",
		"Python SDK str() with zone":     "2027-06-15 18:20:05+00:00",
		"Python SDK str() naive":         "2027-06-15 18:20:05",
		".NET DateTime en-US":            "6/15/2027 6:20:05 PM",
		"Java SDK (h:m:s, no padding)":   "6/15/2027 6:20:5 PM",
		".NET DateTimeOffset en-US":      "6/15/2027 6:20:05 PM +00:00",
		".NET DateTimeOffset, CET":       "6/15/2027 8:20:05 PM +02:00",
		"Unix seconds":                   "1813083605",
		"HTTP date":                      "Tue, 15 Jun 2027 18:20:05 GMT",
		"surrounding spaces are ignored": " 2027-06-15T18:20:05Z ",
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := parseExpiry(in)
			if err != nil || !got.Equal(want) {
				t.Fatalf("parseExpiry(%q) = %v, %v; want %v", in, got, err, want)
			}
		})
	}
	if got, _ := parseExpiry("1/2/2027 12:10:21 AM"); !got.Equal(time.Date(2027, 1, 2, 0, 10, 21, 0, time.UTC)) {
		t.Errorf("12 AM is midnight: got %v", got)
	}
	for _, bad := range []string{"", "tomorrow", "2027-13-01T00:00:00Z", "6/15/2027", "-5", "0", "99999999999999999999", "2027-06-15T18:20:05Z" + string(make([]byte, 60))} {
		if _, err := parseExpiry(bad); err == nil {
			t.Errorf("parseExpiry(%q) accepted", bad)
		}
	}
}

func TestCovers(t *testing.T) {
	cases := []struct {
		resource, path string
		ok             bool
	}{
		{"https://eventgridmodule:4438/topics/t1/events?api-version=2018-01-01", "/topics/t1/events", true},
		{"https://gw.example.com/topics/t1", "/topics/t1/eventSubscriptions/s", true},
		{"http://10.0.0.4:5888/Topics/T1", "/topics/t1", true},
		{"https://localhost:4438/", "/topics/anything", true},
		{"https://localhost:4438", "/topics", true},
		{"/topics/t1", "/topics/t1/events", true},
		{"https://gw/topics/t1", "/topics/t10/events", false},
		{"https://gw/topics/t1/events", "/topics/t1", false},
		{"https://gw/topics/t2", "/topics/t1/events", false},
		{"https://mytopic.westus2-1.eventgrid.azure.net/api/events", "/topics/t1/events", false},
		{"%zz", "/topics", false},
	}
	for _, c := range cases {
		if got := covers(c.resource, c.path); got != c.ok {
			t.Errorf("covers(%q, %q) = %v, want %v", c.resource, c.path, got, c.ok)
		}
	}
}

func TestParseToken(t *testing.T) {
	ok := "r=https%3a%2f%2fgw%2ftopics%2ft&e=6%2f15%2f2027+6%3a20%3a15+PM&s=AAAA"
	tok, err := parseToken(ok)
	if err != nil {
		t.Fatal(err)
	}
	if tok.resource != "https://gw/topics/t" || tok.signed() != "r=https%3a%2f%2fgw%2ftopics%2ft&e=6%2f15%2f2027+6%3a20%3a15+PM" ||
		tok.expiry.Year() != 2027 || len(tok.sig) != 3 {
		t.Fatalf("parsed %+v", tok)
	}
	reordered, err := parseToken("s=AAAA&skn=x&e=6%2f15%2f2027+6%3a20%3a15+PM&r=https%3a%2f%2fgw%2ftopics%2ft&")
	if err != nil || reordered.signed() != tok.signed() {
		t.Fatalf("parts in another order, an unknown part and a trailing &: %v %q", err, reordered.signed())
	}
	unencodedPlus, err := parseToken("r=x&e=1813090805&s=ab+/")
	if err != nil || string(unencodedPlus.sig) != "\x69\xbf\xbf" {
		t.Fatalf("a '+' left unencoded in s: %v %x", err, unencodedPlus.sig)
	}
	bad := map[string]error{
		"":                            errTokenMiss,
		"r=x&e=1813090805":            errTokenMiss,
		"r=&e=1813090805&s=AAAA":      errTokenMiss,
		"r=x&e=1813090805&s=AAAA&r=y": errTokenRepeat,
		"r=x&garbage&s=AAAA":          errTokenField,
		"r=%zz&e=1813090805&s=AAAA":   errTokenEscape,
		"r=x&e=1813090805&s=%%%":      errTokenEscape,
		"r=x&e=1813090805&s=!!!!":     errTokenSig,
		"r=x&e=soon&s=AAAA":           errTokenExpiry,
	}
	for in, want := range bad {
		if _, err := parseToken(in); err != want {
			t.Errorf("parseToken(%q) = %v, want %v", in, err, want)
		}
	}
}
