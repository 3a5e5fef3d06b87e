package filter

import (
	"strings"
	"unicode/utf8"
)

// Kind is the JSON type of a Value.
type Kind uint8

// The kinds of JSON values. Invalid is the zero Kind, carried by the zero
// Value.
const (
	Invalid Kind = iota
	String
	Number
	Bool
	Null
	Object
	Array
)

var kindNames = [...]string{"invalid", "string", "number", "boolean", "null", "object", "array"}

// String returns the lower-case name of the kind ("string", "number", ...).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// Value is a JSON value found by Lookup.
type Value struct {
	// Kind is the JSON type of the value.
	Kind Kind
	// Raw is the value's bytes exactly as they appear in the event (a string
	// keeps its quotes and escapes). It aliases the event bytes, with its
	// capacity clipped so that appending to it cannot overwrite them.
	Raw []byte
}

// Lookup finds the value at a dotted key path (e.g. "Data.P1.P2") inside raw
// JSON object bytes. Segments match object member names case-insensitively
// (Unicode simple folding); an exact-case match is preferred when both exist,
// and among several equally good matches the last one wins, as with
// encoding/json. Each dot steps into a nested object.
//
// Lookup returns false when raw is not a JSON object, when the key is empty or
// has an empty segment, when a segment is missing or an intermediate value is
// not an object, and when an object along the path or the scalar found is
// malformed (member names, skipped values and a returned object or array are
// only delimited, not validated). It never panics and never allocates.
func Lookup(raw []byte, key string) (Value, bool) {
	i := skipWS(raw, 0)
	if key == "" || i >= len(raw) || raw[i] != '{' {
		return Value{}, false
	}
	for {
		seg, rest, more := strings.Cut(key, ".")
		if seg == "" {
			return Value{}, false
		}
		start, end, kind := findMember(raw, i, seg)
		switch {
		case start < 0:
			return Value{}, false
		case !more:
			return Value{Kind: kind, Raw: raw[start:end:end]}, true
		case kind != Object:
			return Value{}, false
		}
		i, key = start, rest
	}
}

// findMember walks the object opening at b[i] and returns the bounds and kind
// of the value of the member best matching name, or start -1 when there is
// none or the object is malformed.
func findMember(b []byte, i int, name string) (start, end int, kind Kind) {
	start, end, exact := -1, -1, false
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return -1, -1, Invalid
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return -1, -1, Invalid
		}
		nameEnd := skipString(b, i)
		if nameEnd < 0 {
			return -1, -1, Invalid
		}
		member := b[i+1 : nameEnd-1]
		i = skipWS(b, nameEnd)
		if i >= len(b) || b[i] != ':' {
			return -1, -1, Invalid
		}
		vs := skipWS(b, i+1)
		ve, k := skipValue(b, vs)
		if ve < 0 {
			return -1, -1, Invalid
		}
		if isExact, isFold := matchName(member, name); isExact || (isFold && !exact) {
			start, end, kind, exact = vs, ve, k, isExact
		}
		i = skipWS(b, ve)
		switch {
		case i >= len(b):
			return -1, -1, Invalid
		case b[i] == '}':
			if start < 0 || !checkValue(b, start, end, kind) {
				return -1, -1, Invalid
			}
			return start, end, kind
		case b[i] != ',':
			return -1, -1, Invalid
		}
		i = skipWS(b, i+1)
	}
}

// matchName compares a member name (raw JSON string content) with a key
// segment: exact reports equality of the decoded runes, fold equality under
// simple case folding. Plain ASCII is compared byte by byte; the rune path
// handles escapes and everything else.
func matchName(member []byte, name string) (exact, fold bool) {
	exact = true
	n := 0
	for n < len(member) && n < len(name) {
		m, c := member[n], name[n]
		if m >= utf8.RuneSelf || c >= utf8.RuneSelf || m == '\\' {
			break
		}
		if m != c {
			if lowerASCII(m) != lowerASCII(c) {
				return false, false
			}
			exact = false
		}
		n++
	}
	if n == len(member) && n == len(name) {
		return exact, true
	}
	it := strIter{b: member, i: n}
	for _, want := range name[n:] {
		got, ok := it.next()
		if !ok {
			return false, false
		}
		if got != want {
			exact = false
			if canon(got) != canon(want) {
				return false, false
			}
		}
	}
	if it.i < len(member) {
		return false, false
	}
	return exact, true
}

// lowerASCII lower-cases an ASCII letter.
func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
