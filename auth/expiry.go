package auth

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// expiryLayouts are the expiry forms Azure SDKs and docs produce, tried in
// order; a form without a zone is UTC.
var expiryLayouts = []string{
	time.RFC3339Nano,                          // Go SDK: 2026-06-15T18:20:15Z
	"2006-01-02T15:04:05.999999999",           // docs' Python sample: datetime.isoformat()
	"2006-01-02 15:04:05.999999999Z07:00",     // Python SDK: str(datetime) with a zone
	"2006-01-02 15:04:05.999999999",           // Python SDK: str(datetime) without one
	"1/2/2006 3:4:5 PM",                       // .NET DateTime en-US, JS SDK, Java SDK (h:m:s)
	"1/2/2006 3:4:5 PM Z07:00",                // .NET DateTimeOffset en-US
	"Mon, 02 Jan 2006 15:04:05 GMT",           // HTTP date (RFC 1123)
	"2006-01-02T15:04:05.999999999Z0700",      // ISO 8601 basic offset
	"2006-01-02 15:04:05.999999999 -0700 MST", // Go's time.Time.String
}

var errExpiry = errors.New("unknown expiry format")

// parseExpiry reads a token's expiry: one of expiryLayouts, or whole
// seconds since 1970 (the form of other Azure SAS tokens). Dates before 1970
// are refused as nonsense rather than treated as expired.
func parseExpiry(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 64 {
		return time.Time{}, errExpiry
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > 0 && n < 1<<40 {
		return time.Unix(n, 0).UTC(), nil
	}
	for _, l := range expiryLayouts {
		if t, err := time.Parse(l, s); err == nil && t.Year() >= 1970 {
			return t, nil
		}
	}
	return time.Time{}, errExpiry
}
