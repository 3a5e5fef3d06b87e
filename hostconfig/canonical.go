package hostconfig

import (
	"slices"
	"strings"
)

// canonicalKey maps every accepted spelling of a variable to the one
// envconfig looks up: ":" becomes "__", letters are upper-cased, and the
// misspelt BROKERS__ prefix (delivery-retry.md) becomes BROKER__.
func canonicalKey(key string) string {
	k := strings.ToUpper(strings.ReplaceAll(key, ":", "__"))
	if rest, ok := strings.CutPrefix(k, "BROKERS__"); ok {
		k = "BROKER__" + rest
	}
	return k
}

// spelling ranks the ways a key can be written; lower wins.
type spelling int

const (
	spellCanonical  spelling = iota // BROKER__DEFAULTMAXDELIVERYATTEMPTS
	spellDocumented                 // broker__defaultMaxDeliveryAttempts
	spellUnderscore                 // Broker__DefaultMaxDeliveryAttempts
	spellColon                      // broker:defaultMaxDeliveryAttempts
	spellAlias                      // brokers__defaultMaxDeliveryAttempts
)

// rankOf ranks key, a spelling of the variable documented as documented.
func rankOf(key, documented string) spelling {
	plain := strings.ToUpper(strings.ReplaceAll(key, ":", "__"))
	switch {
	case strings.HasPrefix(plain, "BROKERS__"):
		return spellAlias
	case strings.Contains(key, ":"):
		return spellColon
	case key == canonicalKey(key):
		return spellCanonical
	case key == documented:
		return spellDocumented
	}
	return spellUnderscore
}

// setting is one environ entry for a known variable.
type setting struct {
	key   string // as spelt in the environment
	value string // trimmed, never empty
	rank  spelling
	order int // position in environ; a later duplicate of one key wins
}

// resolved is what the environ slice says about Config's variables.
type resolved struct {
	settings map[string]setting // winning entry by canonical name
	warnings []string
}

// resolve canonicalises environ's keys and picks one entry per known
// variable. Empty values are dropped first: they count as unset.
func resolve(environ []string, cat *catalog) resolved {
	cands := map[string][]setting{}
	var warnings []string
	for i, kv := range environ {
		key, value, _ := strings.Cut(kv, "=")
		value = strings.TrimSpace(value)
		if key == "" || value == "" {
			continue
		}
		f, ok := cat.lookup(key)
		if !ok {
			if hasOurPrefix(canonicalKey(key)) {
				warnings = append(warnings, "unknown variable "+key+" ignored; check its spelling")
			}
			continue
		}
		cands[f.canon] = append(cands[f.canon], setting{key: key, value: value, rank: rankOf(key, f.name), order: i})
	}
	res := resolved{settings: map[string]setting{}}
	for canon, cs := range cands {
		win, warn := pick(cs, cat.fields[cat.byCanon[canon]].name)
		res.settings[canon] = win
		if warn != "" {
			warnings = append(warnings, warn)
		}
	}
	res.warnings = warnings
	return res
}

// pick returns the entry with the best spelling and, if any other entry
// disagrees with its value, a warning naming the keys (not the values).
func pick(cs []setting, documented string) (setting, string) {
	slices.SortFunc(cs, func(a, b setting) int {
		if a.rank != b.rank {
			return int(a.rank - b.rank)
		}
		if c := strings.Compare(a.key, b.key); c != 0 {
			return c
		}
		return b.order - a.order
	})
	win := cs[0]
	conflict := false
	keys := []string{win.key}
	for _, c := range cs[1:] {
		conflict = conflict || c.value != win.value
		if !slices.Contains(keys, c.key) {
			keys = append(keys, c.key)
		}
	}
	if !conflict {
		return win, ""
	}
	return win, documented + " is set several times with different values (" +
		strings.Join(keys, ", ") + "); using " + win.key
}
