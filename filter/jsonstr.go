package filter

import (
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// strIter yields the runes of the content of a JSON string (the bytes between
// the quotes), decoding escapes on the fly so that comparisons need no
// unescaped copy. It decodes exactly as encoding/json does: an invalid UTF-8
// byte or a lone surrogate escape becomes U+FFFD. On a malformed escape (a
// member name that was only skipped, or a Value built by hand) it yields
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

// Str returns the unquoted value of a String value, decoding escapes as
// encoding/json does (invalid UTF-8 and lone surrogates become U+FFFD). It
// returns false when v is not a string.
//
// Str copies only when decoding changes the bytes (an escape or invalid
// UTF-8 is present). Otherwise the result shares memory with v.Raw, which is
// what keeps it allocation-free: the event bytes must not be modified while
// the string is in use (the broker treats accepted events as immutable).
func (v Value) Str() (string, bool) {
	content, ok := v.content()
	if !ok {
		return "", false
	}
	if len(content) == 0 {
		return "", true
	}
	if !needsDecoding(content) {
		return unsafe.String(&content[0], len(content)), true
	}
	var sb strings.Builder
	sb.Grow(len(content))
	it := strIter{b: content}
	for r, ok := it.next(); ok; r, ok = it.next() {
		sb.WriteRune(r)
	}
	return sb.String(), true
}
