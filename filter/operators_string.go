package filter

import "unicode/utf8"

// compileStrings checks that every operand of a String* operator is a JSON
// string of at most maxValueRunes characters and compiles it for
// case-insensitive comparison.
func compileStrings(elems []element, op operator) ([]foldPattern, *Error) {
	pats := make([]foldPattern, len(elems))
	for i, e := range elems {
		s, ok := e.val.(string)
		if !ok {
			return nil, errorf(e.field, "%s needs JSON strings, but this value is %s; write it in quotes.",
				operators[op].name, describe(e.val))
		}
		if n := utf8.RuneCountInString(s); n > maxValueRunes {
			return nil, errorf(e.field, "The string is %d characters long; the maximum is %d.", n, maxValueRunes)
		}
		pats[i] = newFoldPattern(s, op == opStringContains)
	}
	return pats, nil
}

// matchString applies a String* operator to an event value. Anything but a
// JSON string fails, NotIn included.
func (f *advancedFilter) matchString(v Value) bool {
	content, ok := v.content()
	if !ok {
		return false
	}
	switch f.op {
	case opStringIn:
		return anyEqualFold(content, f.strs)
	case opStringNotIn:
		return !anyEqualFold(content, f.strs)
	case opStringBeginsWith:
		return anyPrefixFold(content, f.strs)
	case opStringEndsWith:
		return anySuffixFold(content, f.strs)
	case opStringContains:
		return anyContainsFold(content, f.strs)
	}
	return false
}

// The any* functions compare the content of a JSON string (escapes
// undecoded) with compiled patterns, case-insensitively, without allocating.

// anyEqualFold reports whether content equals one of pats.
func anyEqualFold(content []byte, pats []foldPattern) bool {
	for i := range pats {
		it := strIter{b: content}
		if prefixFold(&it, pats[i].runes) && it.i == len(content) {
			return true
		}
	}
	return false
}

// anyPrefixFold reports whether content begins with one of pats.
func anyPrefixFold(content []byte, pats []foldPattern) bool {
	for i := range pats {
		it := strIter{b: content}
		if prefixFold(&it, pats[i].runes) {
			return true
		}
	}
	return false
}

// prefixFold consumes len(p) runes from it and reports whether they match p.
func prefixFold(it *strIter, p []rune) bool {
	for _, want := range p {
		r, ok := it.next()
		if !ok || canon(r) != want {
			return false
		}
	}
	return true
}

// anySuffixFold reports whether content ends with one of pats. One pass keeps
// the last maxValueRunes runes in a ring, which holds any pattern's length.
func anySuffixFold(content []byte, pats []foldPattern) bool {
	var ring [maxValueRunes]rune
	n := 0
	it := strIter{b: content}
	for r, ok := it.next(); ok; r, ok = it.next() {
		ring[n%len(ring)] = r
		n++
	}
	for i := range pats {
		p := pats[i].runes
		if len(p) > n || len(p) > len(ring) {
			continue
		}
		j := 0
		for j < len(p) && canon(ring[(n-len(p)+j)%len(ring)]) == p[j] {
			j++
		}
		if j == len(p) {
			return true
		}
	}
	return false
}

// anyContainsFold reports whether one of pats occurs in content. One pass
// runs a Knuth–Morris–Pratt automaton per pattern, so the time is linear in
// the content whatever the patterns.
func anyContainsFold(content []byte, pats []foldPattern) bool {
	if len(pats) > maxValues {
		pats = pats[:maxValues]
	}
	for i := range pats {
		if len(pats[i].runes) == 0 {
			return true
		}
	}
	var state [maxValues]int32
	it := strIter{b: content}
	for r, ok := it.next(); ok; r, ok = it.next() {
		c := canon(r)
		for i := range pats {
			if pats[i].step(&state[i], c) {
				return true
			}
		}
	}
	return false
}
