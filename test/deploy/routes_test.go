package deploy

import (
	"fmt"
	"regexp"
	"testing"
)

// route is one edgeHub route: FROM source [WHERE condition] INTO sink.
type route struct {
	source, where, sink string
	fromModule, output  string // set when source names a module's output ("*" for all)
	toModule, input     string // set when sink is a BrokeredEndpoint
}

var (
	routeRE  = regexp.MustCompile(`(?i)^\s*FROM\s+(\S+)(?:\s+WHERE\s+(.+?))?\s+INTO\s+(.+?)\s*$`)
	sourceRE = regexp.MustCompile(`^/(\*|messages/(\*|modules/(\*|([A-Za-z0-9_-]+)/(\*|outputs/(\*|[^/\s]+)))))$`)
	sinkRE   = regexp.MustCompile(`^(\$upstream|BrokeredEndpoint\("/modules/([A-Za-z0-9_-]+)/inputs/([^"/\s]+)"\))$`)
)

// parseRoute parses a route in the grammar of iotedge-platform §3.2.
func parseRoute(s string) (route, error) {
	m := routeRE.FindStringSubmatch(s)
	if m == nil {
		return route{}, fmt.Errorf("not FROM <source> [WHERE <condition>] INTO <sink>: %q", s)
	}
	r := route{source: m[1], where: m[2], sink: m[3]}
	src := sourceRE.FindStringSubmatch(r.source)
	if src == nil {
		return r, fmt.Errorf("source %q is not /*, /messages/*, /messages/modules/* or /messages/modules/<m>/[outputs/<o>|*]", r.source)
	}
	r.fromModule = src[4]
	if r.fromModule != "" {
		r.output = "*"
		if src[6] != "" {
			r.output = src[6]
		}
	}
	snk := sinkRE.FindStringSubmatch(r.sink)
	if snk == nil {
		return r, fmt.Errorf(`sink %q is not $upstream or BrokeredEndpoint("/modules/<m>/inputs/<i>")`, r.sink)
	}
	r.toModule, r.input = snk[2], snk[3]
	return r, nil
}

func TestParseRoute(t *testing.T) {
	good := map[string]route{
		`FROM /messages/modules/a/outputs/* INTO $upstream`:                                            {fromModule: "a", output: "*", sink: "$upstream"},
		`from /messages/modules/a/outputs/o1 WHERE x = 1 into BrokeredEndpoint("/modules/b/inputs/i")`: {fromModule: "a", output: "o1", toModule: "b", input: "i", where: "x = 1"},
		`FROM /messages/* INTO $upstream`:                                                              {sink: "$upstream"},
	}
	for s, want := range good {
		r, err := parseRoute(s)
		if err != nil || r.fromModule != want.fromModule || r.output != want.output || r.toModule != want.toModule ||
			r.input != want.input || r.where != want.where {
			t.Errorf("parseRoute(%q) = %+v, %v", s, r, err)
		}
	}
	for _, s := range []string{
		`FROM /messages/modules/a/outputs/* TO $upstream`,
		`FROM /messages/modules/a/output/x INTO $upstream`,
		`FROM /messages/modules/a/* INTO BrokeredEndpoint("/modules/b/outputs/x")`,
		`FROM /messages/modules/a/* INTO upstream`,
		`INTO $upstream`,
	} {
		if _, err := parseRoute(s); err == nil {
			t.Errorf("parseRoute(%q) accepted", s)
		}
	}
}

// TestRoutes: every route parses and names only modules of the manifest; an
// edgeHub route feeds the module's input (ingest), its outputs go upstream
// and to the sample subscriber, and every EdgeHub subscription's output name
// is routed somewhere.
func TestRoutes(t *testing.T) {
	m := loadManifest(t)
	modules := m.ModulesContent.EdgeAgent.Desired.Modules
	var routes []route
	for name, s := range m.ModulesContent.EdgeHub.Desired.Routes {
		r, err := parseRoute(s)
		if err != nil {
			t.Errorf("route %s: %v", name, err)
			continue
		}
		if _, ok := modules[r.toModule]; r.toModule != "" && !ok {
			t.Errorf("route %s delivers to module %q, which the manifest does not deploy", name, r.toModule)
		}
		routes = append(routes, r)
	}
	has := func(what string, ok func(route) bool) {
		for _, r := range routes {
			if ok(r) {
				return
			}
		}
		t.Errorf("no route %s", what)
	}
	has("into the module's inputs", func(r route) bool { return r.toModule == moduleName && r.input != "" })
	has("from the module's outputs to $upstream", func(r route) bool {
		return r.fromModule == moduleName && r.output == "*" && r.sink == "$upstream"
	})
	has("from the module's outputs to another module", func(r route) bool {
		return r.fromModule == moduleName && r.toModule != "" && r.toModule != moduleName
	})
	for _, out := range edgeHubOutputs(t, m) {
		has("for output "+out, func(r route) bool {
			return r.fromModule == moduleName && (r.output == "*" || r.output == out) && r.sink != "$upstream"
		})
	}
}
