package hostconfig

import (
	"slices"
	"strings"
)

// Load builds the configuration from environ, a list of KEY=VALUE strings
// (main passes os.Environ(); tests pass their own). It accepts every
// spelling described in the package documentation, decodes with envconfig,
// then validates. It reports every invalid variable in one *Error (which
// matches ErrInvalidConfig) and returns a nil Config in that case.
//
// Load briefly sets and then restores the canonical names of Config's
// variables in the process environment; see "The envconfig bridge" in the
// package documentation. It is safe for concurrent use.
func Load(environ []string) (*Config, error) {
	cat := theCatalog()
	res := resolve(environ, cat)
	cfg := &Config{}
	parsed := decode(cfg, res.settings, cat)
	cfg.Edge.fillStandalone()
	probs := mergeProblems(parsed, cfg.problems())
	if len(probs) > 0 {
		return nil, newError(annotate(probs, res.settings, cat))
	}
	warnings := append(res.warnings, cfg.lint()...)
	if len(warnings) > 0 {
		slices.Sort(warnings)
		cfg.Warnings = slices.Compact(warnings)
	}
	return cfg, nil
}

// mergeProblems adds the validation problems to the parse problems, leaving
// out those about variables that already failed to parse: their value was
// replaced by the default, so a complaint about it would mislead. A
// problem about several variables (names separated by ", ") is left out when
// any of them failed.
func mergeProblems(parsed, validated []Problem) []Problem {
	failed := map[string]bool{}
	for _, p := range parsed {
		failed[p.Name] = true
	}
	out := parsed
	for _, p := range validated {
		if !slices.ContainsFunc(strings.Split(p.Name, ", "), func(n string) bool { return failed[n] }) {
			out = append(out, p)
		}
	}
	return out
}

// annotate adds how the user spelt each variable and, for values they set,
// the value exactly as they wrote it. Secrets keep their mask.
func annotate(probs []Problem, settings map[string]setting, cat *catalog) []Problem {
	for i, p := range probs {
		f, ok := cat.lookup(p.Name)
		if !ok {
			continue
		}
		s, ok := settings[f.canon]
		if !ok {
			continue
		}
		if s.key != f.name {
			probs[i].SetAs = s.key
		}
		if p.Value != "" && !f.secret {
			probs[i].Value = s.value
		}
	}
	return probs
}

// lint returns warnings about settings that are accepted but look wrong.
func (c *Config) lint() []string {
	var out []string
	in := c.Inbound
	if !in.SASKeysEnabled && (in.SASKey1 != "" || in.SASKey2 != "") {
		out = append(out, "inbound__clientAuth__sasKeys__key1/key2 are set but inbound__clientAuth__sasKeys__enabled is false; the keys are ignored")
	}
	out = append(out, c.lintSecurity()...)
	out = append(out, lintEntra(c.Outbound, c.Azure)...)
	out = append(out, lintEdgeHub(c)...)
	return append(out, lintLog(c.Log)...)
}

// decimal strips leading zeros from a decimal integer: envconfig parses
// integers with base 0, which would read "010" as octal 8, while the
// original module (.NET) reads it as 10.
func decimal(v string) string {
	sign := ""
	if strings.HasPrefix(v, "+") || strings.HasPrefix(v, "-") {
		sign, v = v[:1], v[1:]
	}
	if len(v) < 2 || v[0] != '0' || strings.Trim(v, "0123456789") != "" {
		return sign + v
	}
	v = strings.TrimLeft(v, "0")
	if v == "" {
		v = "0"
	}
	return sign + v
}
