package auth

import (
	"net/url"
	"strings"
)

// covers reports whether a token for resource grants path: the resource's
// path segments must be a prefix of the request's, compared in any case (the
// API's names and literals are case-insensitive). Scheme, host, port, query
// and fragment are ignored; a resource with no path covers every route.
func covers(resource, path string) bool {
	u, err := url.Parse(resource)
	if err != nil {
		return false
	}
	want := segments(u.Path)
	got := segments(path)
	if len(want) > len(got) {
		return false
	}
	for i, w := range want {
		if !strings.EqualFold(w, got[i]) {
			return false
		}
	}
	return true
}

// segments splits a path into its non-empty segments.
func segments(p string) []string {
	var out []string
	for s := range strings.SplitSeq(p, "/") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
