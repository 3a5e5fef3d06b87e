package filter

import (
	"strings"
	"testing"
	"unicode"
)

// TestCanonAgreesWithEqualFold checks, for every rune with case variants,
// that canon equality is exactly strings.EqualFold on single runes.
func TestCanonAgreesWithEqualFold(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		f := unicode.SimpleFold(r)
		if f == r {
			if canon(r) != r {
				t.Fatalf("canon(%U) = %U for a rune without case variants", r, canon(r))
			}
			continue
		}
		for g := f; g != r; g = unicode.SimpleFold(g) {
			if canon(g) != canon(r) {
				t.Fatalf("canon(%U) = %U but canon(%U) = %U", g, canon(g), r, canon(r))
			}
		}
		if !strings.EqualFold(string(r), string(canon(r))) {
			t.Fatalf("canon(%U) = %U is not EqualFold", r, canon(r))
		}
	}
	if canon('a') == canon('b') || canon('ß') == canon('s') {
		t.Fatal("canon merges runes that do not fold together")
	}
}

// words returns every string over alphabet of length 0..maxLen.
func words(alphabet []string, maxLen int) []string {
	out := []string{""}
	level := []string{""}
	for range maxLen {
		var next []string
		for _, w := range level {
			for _, a := range alphabet {
				next = append(next, w+a)
			}
		}
		out = append(out, next...)
		level = next
	}
	return out
}

// naiveFoldIndex is a quadratic reference for folded substring search over
// rune slices.
func naiveFoldIndex(text, pat []rune) bool {
	for i := 0; i+len(pat) <= len(text); i++ {
		j := 0
		for j < len(pat) && canon(text[i+j]) == canon(pat[j]) {
			j++
		}
		if j == len(pat) {
			return true
		}
	}
	return false
}

// TestFoldSearchExhaustive compares the one-pass searches with references
// on every short word over an alphabet with case and width variants.
func TestFoldSearchExhaustive(t *testing.T) {
	alphabet := []string{"a", "A", "b", "\u212a", "k"}
	texts := words(alphabet, 5)
	pats := words(alphabet, 3)
	for _, p := range pats {
		fp := []foldPattern{newFoldPattern(p, true)}
		pr := []rune(p)
		for _, s := range texts {
			content := []byte(s)
			sr := []rune(s)
			contains := naiveFoldIndex(sr, pr)
			prefix := len(pr) <= len(sr) && naiveFoldIndex(sr[:len(pr)], pr)
			suffix := len(pr) <= len(sr) && naiveFoldIndex(sr[len(sr)-len(pr):], pr)
			equal := len(pr) == len(sr) && prefix
			if got := anyContainsFold(content, fp); got != contains {
				t.Fatalf("contains(%q, %q) = %v, want %v", s, p, got, contains)
			}
			if got := anyPrefixFold(content, fp); got != prefix {
				t.Fatalf("prefix(%q, %q) = %v, want %v", s, p, got, prefix)
			}
			if got := hasPrefixFold(s, fp[0].runes); got != prefix {
				t.Fatalf("hasPrefixFold(%q, %q) = %v, want %v", s, p, got, prefix)
			}
			if got := anySuffixFold(content, fp); got != suffix {
				t.Fatalf("suffix(%q, %q) = %v, want %v", s, p, got, suffix)
			}
			if got := hasSuffixFold(s, fp[0].runes); got != suffix {
				t.Fatalf("hasSuffixFold(%q, %q) = %v, want %v", s, p, got, suffix)
			}
			if got := anyEqualFold(content, fp); got != equal || equal != strings.EqualFold(s, p) {
				t.Fatalf("equal(%q, %q) = %v, want %v (EqualFold %v)", s, p, got, equal, strings.EqualFold(s, p))
			}
		}
	}
}

// TestSuffixRingWraps checks the suffix ring on values longer than its size.
func TestSuffixRingWraps(t *testing.T) {
	pat := strings.Repeat("ab", maxValueRunes/2)
	tests := map[string]struct {
		content string
		want    bool
	}{
		"exactly the pattern":       {pat, true},
		"long prefix, then pattern": {strings.Repeat("x", 3*maxValueRunes+7) + strings.ToUpper(pat), true},
		"long, one rune off":        {strings.Repeat("x", 3*maxValueRunes+7) + pat[:len(pat)-1] + "c", false},
		"pattern minus one rune":    {pat[1:], false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := anySuffixFold([]byte(tc.content), []foldPattern{newFoldPattern(pat, false)}); got != tc.want {
				t.Errorf("suffix = %v, want %v", got, tc.want)
			}
		})
	}
}
