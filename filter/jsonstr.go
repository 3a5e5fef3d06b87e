package filter

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// strIter yields the runes of the content of a JSON string (the bytes between
// the quotes), decoding escapes on the fly so that comparisons need no
// unescaped copy. It decodes exactly as encoding/json does: an invalid UTF-8
// byte or a lone surrogate escape becomes U+FFFD. On a malformed escape
// (impossible after scanString, but Value may be built by hand) it yields
// U+FFFD and moves on; it never reads outside b.
type strIter struct {
	b []byte
	i int
}

// next returns the next rune, or false at the end of the content.
func (it *strIter) next() (rune, bool) {
	if it.i >= len(it.b) {
		return 0, false
	}
	c := it.b[it.i]
	switch {
	case c == '\\':
		return it.escape(), true
	case c < utf8.RuneSelf:
		it.i++
		return rune(c), true
	}
	r, n := utf8.DecodeRune(it.b[it.i:])
	it.i += n
	return r, true
}

// escape decodes the escape sequence at it.i.
func (it *strIter) escape() rune {
	b, i := it.b, it.i
	if i+1 >= len(b) {
		it.i = len(b)
		return unicode.ReplacementChar
	}
	it.i = i + 2
	switch b[i+1] {
	case '"', '\\', '/':
		return rune(b[i+1])
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'u':
		return it.unicodeEscape()
	}
	return unicode.ReplacementChar
}

// unicodeEscape decodes the hex digits of a \u escape whose "\u" has been
// consumed, combining a valid surrogate pair.
func (it *strIter) unicodeEscape() rune {
	r, ok := hex4(it.b, it.i)
	if !ok {
		return unicode.ReplacementChar
	}
	it.i += 4
	if !utf16.IsSurrogate(r) {
		return r
	}
	b, i := it.b, it.i
	if i+6 <= len(b) && b[i] == '\\' && b[i+1] == 'u' {
		if r2, ok := hex4(b, i+2); ok {
			if d := utf16.DecodeRune(r, r2); d != unicode.ReplacementChar {
				it.i += 6
				return d
			}
		}
	}
	return unicode.ReplacementChar
}

// content returns the bytes between the quotes of a String value, or false
// when v is not a well-formed string token.
func (v Value) content() ([]byte, bool) {
	n := len(v.Raw)
	if v.Kind != String || n < 2 || v.Raw[0] != '"' || v.Raw[n-1] != '"' {
		return nil, false
	}
	return v.Raw[1 : n-1], true
}

// needsDecoding reports whether content holds an escape or invalid UTF-8,
// that is, whether its decoded form differs from its bytes.
func needsDecoding(content []byte) bool {
	for _, c := range content {
		if c == '\\' {
			return true
		}
	}
	return !utf8.Valid(content)
}
