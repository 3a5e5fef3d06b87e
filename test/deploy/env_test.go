package deploy

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/hostconfig"
)

// envNameRE is the deployment schema's pattern for env names.
var envNameRE = regexp.MustCompile(`^[^\+#$\s\.]+$`)

// moduleEnviron returns the module's environment as edgeAgent builds it: the
// env section, then createOptions.Env (which wins on a duplicate key).
func moduleEnviron(t *testing.T, spec moduleSpec) []string {
	t.Helper()
	var out []string
	for name, v := range spec.Env {
		if !envNameRE.MatchString(name) {
			t.Errorf("env name %q does not match the schema's %s", name, envNameRE)
		}
		out = append(out, name+"="+envValue(t, name, v.Value))
	}
	return append(out, decodeCreateOptions(t, spec.Settings.CreateOptions).Env...)
}

// envValue renders {"value": …} as the container sees it; the schema allows
// a string, a number or a boolean.
func envValue(t *testing.T, name string, raw json.RawMessage) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("env %s: %v", name, err)
	}
	switch v := v.(type) {
	case string:
		return v
	case float64, bool:
		return strings.TrimSpace(string(raw))
	}
	t.Errorf("env %s: value %s is not a string, number or boolean", name, raw)
	return ""
}

// TestEnvNamesKnown: every variable the manifest sets for the module, in the
// env section and in createOptions.Env, is one hostconfig knows. A misspelt
// name would otherwise be silently ignored by the module.
func TestEnvNamesKnown(t *testing.T) {
	spec := loadManifest(t).eventGrid(t)
	env := moduleEnviron(t, spec)
	if len(env) == 0 {
		t.Fatal("the manifest sets no environment for the module")
	}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !hostconfig.IsKnown(name) {
			t.Errorf("manifest sets %q, which hostconfig does not know", name)
		}
	}
}

// TestEnvSpellsOutDefaults: the manifest's environment loads without a
// problem or warning and yields exactly hostconfig's defaults: the values it
// spells out are the documented defaults, secure by default.
func TestEnvSpellsOutDefaults(t *testing.T) {
	env := moduleEnviron(t, loadManifest(t).eventGrid(t))
	cfg, err := hostconfig.Load(env)
	if err != nil {
		t.Fatalf("the manifest's environment does not load: %v", err)
	}
	if len(cfg.Warnings) > 0 {
		t.Errorf("warnings: %v", cfg.Warnings)
	}
	if want := hostconfig.Defaults(); !reflect.DeepEqual(cfg, want) {
		t.Errorf("the manifest's settings differ from hostconfig's defaults:\n got %+v\nwant %+v", cfg, want)
	}
}

// TestEnvSpellsOutSecurity: every inbound__/outbound__ setting and every
// broker__default… that has a default is written out, so users see what they
// run with. The list comes from hostconfig.Config's tags, the same tags Load
// and Names read.
func TestEnvSpellsOutSecurity(t *testing.T) {
	spec := loadManifest(t).eventGrid(t)
	set := map[string]bool{}
	for name := range spec.Env {
		set[strings.ToLower(name)] = true
	}
	checked := 0
	for _, v := range taggedVariables() {
		lower := strings.ToLower(v.name)
		documented := strings.HasPrefix(lower, "inbound__serverauth__") || strings.HasPrefix(lower, "inbound__clientauth__") ||
			strings.HasPrefix(lower, "outbound__") || strings.HasPrefix(lower, "broker__default")
		if !documented || v.def == "" || v.secret {
			continue
		}
		checked++
		if !set[lower] {
			t.Errorf("manifest does not spell out %s (default %s)", v.name, v.def)
		}
	}
	if checked < 15 {
		t.Fatalf("only %d settings checked; hostconfig.Config's tags were not read", checked)
	}
}

type taggedVariable struct {
	name, def string
	secret    bool
}

// taggedVariables lists the variables hostconfig.Config declares, from its
// struct tags (envconfig, default, secret).
func taggedVariables() []taggedVariable {
	var out []taggedVariable
	ct := reflect.TypeFor[hostconfig.Config]()
	for i := range ct.NumField() {
		st := ct.Field(i).Type
		if st.Kind() != reflect.Struct {
			continue
		}
		for j := range st.NumField() {
			tag := st.Field(j).Tag
			if name := tag.Get("envconfig"); name != "" {
				out = append(out, taggedVariable{name, tag.Get("default"), tag.Get("secret") == "true"})
			}
		}
	}
	return out
}
