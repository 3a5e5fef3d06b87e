package hostconfig

import (
	"fmt"
	"io"
	"reflect"
	"strings"
	"text/tabwriter"
)

// masked replaces a secret value that is set.
const masked = "***"

// Summary returns the effective configuration by documented variable name,
// for a one-line startup log. Secrets (fields tagged secret, such as the SAS
// keys) read "***" when set and "" when not. log__level shows the effective
// level (see LogLevel), and the Edge names include the standalone defaults.
func (c *Config) Summary() map[string]string {
	cat := theCatalog()
	out := make(map[string]string, len(cat.fields))
	for _, f := range cat.fields {
		v := fmt.Sprint(f.value(c).Interface())
		if f.secret && v != "" {
			v = masked
		}
		out[f.name] = v
	}
	out["log__level"] = c.LogLevel()
	return out
}

// usageHeader explains the spellings Usage's table does not repeat.
const usageHeader = `edgegrid is configured by environment variables. Names are matched in any
case, ':' may stand for '__' (inbound:serverAuth:tlsPolicy), and
brokers__ is accepted for broker__. An empty value counts as unset.

`

// Usage writes a table of every variable with its type, default and
// description, in documented spelling, for --help and the README.
func Usage(w io.Writer) error {
	if _, err := io.WriteString(w, usageHeader); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 1, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "VARIABLE\tTYPE\tDEFAULT\tDESCRIPTION")
	for _, f := range theCatalog().fields {
		desc := f.desc
		if f.secret {
			desc += " (secret)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", f.name, typeName(f.typ), f.def, desc)
	}
	return tw.Flush()
}

// enumType is implemented by the enumerated setting types.
type enumType interface{ enumValues() []string }

// typeName describes t for Usage.
func typeName(t reflect.Type) string {
	if e, ok := reflect.Zero(t).Interface().(enumType); ok {
		return strings.Join(e.enumValues(), "|")
	}
	switch t.Kind() {
	case reflect.Bool:
		return "bool"
	case reflect.Int, reflect.Int64:
		return "integer"
	}
	return "string"
}
