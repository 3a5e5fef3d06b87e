// Package arch holds the project's dependency rules: which of its packages
// may import which (STYLE.md's table, with the packages added since). A new
// package must be added here, which makes its place in the design explicit.
package arch

import (
	"os/exec"
	"sort"
	"strings"
	"testing"
)

const mod = "github.com/edgegrid/edgegrid/"

// allowed lists, for each non-test package, the project packages it may
// import. Leaves import none. Nothing imports module; api, mqttingest and
// edgehub are imported by module only; internal/testenv by tests only.
var allowed = map[string][]string{
	"retry": {}, "filter": {}, "eventschema": {}, "workload": {}, "auth": {},
	"mqtttopic": {}, "mqttconn": {}, "ratelog": {},
	"hostconfig":            {"mqtttopic"},
	"destination":           {"eventschema"},
	"destination/webhook":   {"destination", "eventschema"},
	"destination/eventgrid": {"destination", "eventschema"},
	"destination/edgehub":   {"destination", "eventschema"},
	"destination/mqtt":      {"destination", "eventschema", "mqttconn", "mqtttopic", "ratelog"},
	"broker":                {"retry", "filter", "eventschema", "destination"},
	"resource":              {"broker", "destination", "eventschema", "filter"},
	"metastore":             {"broker", "resource"},
	"metrics":               {"broker", "retry"},
	"certs":                 {"retry", "workload"},
	"api":                   {"broker", "eventschema", "resource"},
	"mqttingest":            {"broker", "eventschema", "mqttconn", "mqtttopic", "ratelog"},
	"edgehub":               {"broker", "destination/edgehub", "eventschema", "resource", "retry", "workload"},
	"internal/testenv":      {"*"},
	"module":                {"*"},
	"bench":                 {},
	"test/smoke":            {},
}

func TestDependencyRules(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, mod+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], mod)
		if strings.HasPrefix(pkg, "test/") && pkg != "test/smoke" {
			continue // test-only packages
		}
		rules, ok := allowed[pkg]
		if !ok {
			t.Errorf("package %s has no dependency rule; add it to allowed", pkg)
			continue
		}
		for _, imp := range fields[1:] {
			if !strings.HasPrefix(imp, mod) {
				continue
			}
			dep := strings.TrimPrefix(imp, mod)
			if !permitted(rules, dep) {
				t.Errorf("%s imports %s, which its rule %v does not allow", pkg, dep, rules)
			}
			if dep == "internal/testenv" && pkg != "internal/testenv" {
				t.Errorf("%s imports the test helpers outside tests", pkg)
			}
		}
	}
}

func permitted(rules []string, dep string) bool {
	if len(rules) == 1 && rules[0] == "*" {
		return dep != "module"
	}
	i := sort.SearchStrings(sorted(rules), dep)
	return i < len(rules) && sorted(rules)[i] == dep
}

func sorted(s []string) []string {
	c := append([]string(nil), s...)
	sort.Strings(c)
	return c
}
