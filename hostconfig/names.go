package hostconfig

import (
	"reflect"
	"strings"
	"sync"
)

// field describes one variable Config declares, as read from its tags.
type field struct {
	name    string       // documented spelling (envconfig tag)
	canon   string       // canonical spelling, the one envconfig looks up
	def     string       // default tag; "" when none
	desc    string       // desc tag
	secret  bool         // secret:"true": never show the value
	typ     reflect.Type // the field's Go type
	section int          // index of the section in Config
	index   int          // index of the field in its section
}

// catalog is every variable Config declares, in declaration order.
type catalog struct {
	fields  []field
	byCanon map[string]int // canonical name → index in fields
}

// theCatalog is built once from Config's struct tags and never changes.
var theCatalog = sync.OnceValue(buildCatalog)

func buildCatalog() *catalog {
	cat := &catalog{byCanon: map[string]int{}}
	ct := reflect.TypeFor[Config]()
	for si := range ct.NumField() {
		st := ct.Field(si).Type
		if st.Kind() != reflect.Struct {
			continue
		}
		for fi := range st.NumField() {
			sf := st.Field(fi)
			name := sf.Tag.Get("envconfig")
			f := field{
				name: name, canon: canonicalKey(name),
				def: sf.Tag.Get("default"), desc: sf.Tag.Get("desc"),
				secret: sf.Tag.Get("secret") == "true",
				typ:    sf.Type, section: si, index: fi,
			}
			cat.byCanon[f.canon] = len(cat.fields)
			cat.fields = append(cat.fields, f)
		}
	}
	return cat
}

// lookup returns the field a key of any accepted spelling names.
func (cat *catalog) lookup(key string) (field, bool) {
	i, ok := cat.byCanon[canonicalKey(key)]
	if !ok {
		return field{}, false
	}
	return cat.fields[i], true
}

// value returns the field's value inside c.
func (f field) value(c *Config) reflect.Value {
	return reflect.ValueOf(c).Elem().Field(f.section).Field(f.index)
}

// sections returns pointers to Config's section structs, the units
// envconfig.Process decodes.
func sections(c *Config) []any {
	v := reflect.ValueOf(c).Elem()
	var out []any
	for i := range v.NumField() {
		if v.Field(i).Kind() == reflect.Struct {
			out = append(out, v.Field(i).Addr().Interface())
		}
	}
	return out
}

// Names returns every environment variable Config knows, in documented
// spelling and declaration order. It is derived from Config's struct tags.
func Names() []string {
	cat := theCatalog()
	out := make([]string, len(cat.fields))
	for i, f := range cat.fields {
		out[i] = f.name
	}
	return out
}

// IsKnown reports whether name, in any spelling Load accepts (any case, ":"
// for "__", brokers__ for broker__), is a variable Config knows.
func IsKnown(name string) bool {
	_, ok := theCatalog().lookup(name)
	return ok
}

// ourPrefixes are the canonical prefixes of this module's variables; an
// unknown variable with one of them is likely a typo.
var ourPrefixes = []string{"INBOUND__", "OUTBOUND__", "BROKER__", "API__", "METRICS__", "MQTT__", "LOG__", "EDGEHUB__"}

func hasOurPrefix(canon string) bool {
	for _, p := range ourPrefixes {
		if strings.HasPrefix(canon, p) {
			return true
		}
	}
	return false
}
