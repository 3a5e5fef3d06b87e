package eventschema

import (
	"encoding/json"
	"unicode/utf8"
)

// The scanner walks JSON that json.Valid already accepted, so it only has to
// find where values end; it never copies. Parsers keep sub-slices of the
// request body and copy once, into each event's Raw.

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// skipValue returns the index just past the value starting at b[i].
func skipValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = skipString(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return len(b)
	default: // number, true, false, null
		for i < len(b) && !isSpace(b[i]) && b[i] != ',' && b[i] != '}' && b[i] != ']' {
			i++
		}
		return i
	}
}

// skipString returns the index just past the string token starting at b[i].
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// elements calls f with each element of the JSON array b (valid JSON).
func elements(b []byte, f func(el []byte)) {
	i := skipSpace(b, 0) + 1 // past '['
	for {
		i = skipSpace(b, i)
		if i >= len(b) || b[i] == ']' {
			return
		}
		end := skipValue(b, i)
		f(b[i:end])
		i = skipSpace(b, end)
		if i < len(b) && b[i] == ',' {
			i++
		}
	}
}

// members calls f with each member of the JSON object b (valid JSON): the key
// token (quotes included) and the value's bytes.
func members(b []byte, f func(key, val []byte)) {
	i := skipSpace(b, 0) + 1 // past '{'
	for {
		i = skipSpace(b, i)
		if i >= len(b) || b[i] == '}' {
			return
		}
		kEnd := skipString(b, i)
		key := b[i:kEnd]
		i = skipSpace(b, kEnd) + 1 // past ':'
		i = skipSpace(b, i)
		vEnd := skipValue(b, i)
		f(key, b[i:vEnd])
		i = skipSpace(b, vEnd)
		if i < len(b) && b[i] == ',' {
			i++
		}
	}
}

// keyIs reports whether the key token names name, matching as encoding/json
// does: an exact or a case-insensitive (simple Unicode folding) match, after
// unescaping.
func keyIs(key []byte, name string) bool {
	inner := key[1 : len(key)-1]
	if len(inner) == len(name) && asciiFoldEqual(inner, name) {
		return true
	}
	for _, c := range inner {
		if c == '\\' || c >= utf8.RuneSelf {
			var s string
			if json.Unmarshal(key, &s) != nil {
				return false
			}
			return foldEqual(s, name)
		}
	}
	return false
}

func asciiFoldEqual(b []byte, s string) bool {
	for i := 0; i < len(b); i++ {
		x, y := b[i], s[i]
		if x == y {
			continue
		}
		if x|0x20 != y|0x20 || (x|0x20) < 'a' || (x|0x20) > 'z' {
			return false
		}
	}
	return true
}
