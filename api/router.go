package api

import (
	"net/http"
	"net/url"
	"strings"
)

// params are a route's path parameters, already percent-decoded.
type params map[string]string

type handlerFunc func(w http.ResponseWriter, r *http.Request, p params) error

// route is one entry of the route table. Literal segments match
// case-insensitively, as ASP.NET routing did for the original module.
type route struct {
	method  string
	pattern []string // literals, or "{name}" parameters
	publish bool     // publish routes also accept the cloud's api-version 2018-01-01
	noAuth  bool     // health routes: no api-version, no authentication
	handle  handlerFunc
}

func newRoute(method, path string, h handlerFunc) route {
	return route{method: method, pattern: strings.Split(strings.Trim(path, "/"), "/"), handle: h}
}

// splitPath splits the escaped path into decoded segments; a trailing slash is
// ignored (the SDK lists subscriptions at ".../eventSubscriptions/").
func splitPath(u *url.URL) ([]string, bool) {
	raw := strings.Trim(u.EscapedPath(), "/")
	if raw == "" {
		return nil, true
	}
	segs := strings.Split(raw, "/")
	for i, s := range segs {
		d, err := url.PathUnescape(s)
		if err != nil {
			return nil, false
		}
		segs[i] = d
	}
	return segs, true
}

func (rt *route) match(segs []string) (params, bool) {
	if len(segs) != len(rt.pattern) {
		return nil, false
	}
	var p params
	for i, pat := range rt.pattern {
		if strings.HasPrefix(pat, "{") {
			if p == nil {
				p = params{}
			}
			p[strings.Trim(pat, "{}")] = segs[i]
			continue
		}
		if !strings.EqualFold(pat, segs[i]) {
			return nil, false
		}
	}
	return p, true
}

// lookup finds the route for a request: ok=false with allowed methods means 405,
// with none means 404.
func (s *Server) lookup(r *http.Request) (*route, params, []string) {
	segs, ok := splitPath(r.URL)
	if !ok {
		return nil, nil, nil
	}
	var allowed []string
	for i := range s.routes {
		rt := &s.routes[i]
		p, ok := rt.match(segs)
		if !ok {
			continue
		}
		if rt.method == r.Method || (rt.method == http.MethodGet && r.Method == http.MethodHead) {
			return rt, p, nil
		}
		allowed = append(allowed, rt.method)
	}
	return nil, nil, allowed
}
