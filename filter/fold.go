package filter

import (
	"unicode"
	"unicode/utf8"
)

// Case-insensitive comparison uses Unicode simple folding, the relation of
// strings.EqualFold: two runes are equal when they lie in the same
// unicode.SimpleFold orbit. canon maps every rune to the smallest rune of its
// orbit, so folded equality is canon(a) == canon(b). Simple folding maps one
// rune to one rune, so folded-equal strings have the same number of runes;
// that is what lets prefix and suffix tests walk rune by rune without ever
// comparing byte lengths of differently-cased text ("ÄPFEL" is 6 bytes,
// "äpfel" 6 too, but "K" (Kelvin sign) is 3 bytes against "k"'s 1).

// canon returns the representative of r's simple-folding orbit. The ASCII
// case is small enough to be inlined into the comparison loops.
func canon(r rune) rune {
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' {
			r -= 'a' - 'A'
		}
		return r
	}
	return canonOrbit(r)
}

// canonOrbit walks r's orbit and returns its smallest rune.
func canonOrbit(r rune) rune {
	lowest := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		lowest = min(lowest, f)
	}
	return lowest
}

// foldPattern is a compiled case-insensitive pattern.
type foldPattern struct {
	// text is the pattern as given.
	text string
	// runes holds canon of each rune of text.
	runes []rune
	// border is the KMP failure table of runes: border[i] is the length of
	// the longest proper prefix of runes[:i+1] that is also its suffix. It is
	// only built for substring search.
	border []int32
}

// newFoldPattern compiles s; withBorder builds the substring-search table.
func newFoldPattern(s string, withBorder bool) foldPattern {
	p := foldPattern{text: s, runes: make([]rune, 0, len(s))}
	for _, r := range s {
		p.runes = append(p.runes, canon(r))
	}
	if withBorder && len(p.runes) > 0 {
		p.border = make([]int32, len(p.runes))
		k := int32(0)
		for i := 1; i < len(p.runes); i++ {
			for k > 0 && p.runes[i] != p.runes[k] {
				k = p.border[k-1]
			}
			if p.runes[i] == p.runes[k] {
				k++
			}
			p.border[i] = k
		}
	}
	return p
}

// step advances the substring-search state *q (the length of the pattern
// prefix matched so far) by one canonical rune c and reports whether the
// whole pattern has now been seen.
func (p *foldPattern) step(q *int32, c rune) bool {
	k := *q
	for k > 0 && p.runes[k] != c {
		k = p.border[k-1]
	}
	if p.runes[k] == c {
		k++
	}
	*q = k
	return int(k) == len(p.runes)
}

// hasPrefixFold reports whether s begins with p under simple folding.
func hasPrefixFold(s string, p []rune) bool {
	for _, want := range p {
		if s == "" {
			return false
		}
		r, n := utf8.DecodeRuneInString(s)
		if canon(r) != want {
			return false
		}
		s = s[n:]
	}
	return true
}

// hasSuffixFold reports whether s ends with p under simple folding.
func hasSuffixFold(s string, p []rune) bool {
	for j := len(p) - 1; j >= 0; j-- {
		if s == "" {
			return false
		}
		r, n := utf8.DecodeLastRuneInString(s)
		if canon(r) != p[j] {
			return false
		}
		s = s[:len(s)-n]
	}
	return true
}
