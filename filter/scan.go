package filter

// A minimal, strict JSON scanner over raw bytes (skip.go holds the lenient
// counterparts). Every function takes the buffer and the index of the first
// byte of the item, and returns the index just past the item, or -1 when the
// bytes are malformed. None allocates, none recurses, and none reads outside
// b, so arbitrary input is safe.

// skipWS returns the index of the first non-whitespace byte at or after i.
func skipWS(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// plainStringByte marks the bytes that need no attention inside a JSON
// string: everything but '"', '\\' and control characters. It is read-only.
var plainStringByte = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// scanString scans a JSON string starting at its opening quote, validating
// escapes and rejecting raw control characters.
func scanString(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	i++
	for {
		for i < len(b) && plainStringByte[b[i]] {
			i++
		}
		if i >= len(b) {
			return -1
		}
		switch b[i] {
		case '"':
			return i + 1
		case '\\':
			if i = scanEscape(b, i); i < 0 {
				return -1
			}
		default: // control character
			return -1
		}
	}
}

// scanEscape validates the escape sequence starting at the backslash b[i].
func scanEscape(b []byte, i int) int {
	if i+1 >= len(b) {
		return -1
	}
	switch b[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return i + 2
	case 'u':
		if _, ok := hex4(b, i+2); ok {
			return i + 6
		}
	}
	return -1
}

// hex4 decodes the four hex digits at b[i:i+4].
func hex4(b []byte, i int) (rune, bool) {
	if i < 0 || i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// scanNumber scans a number with the JSON grammar
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func scanNumber(b []byte, i int) int {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = scanDigits(b, i)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		if i = scanDigits(b, i+1); i < 0 {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		return scanDigits(b, i)
	}
	return i
}

// scanDigits scans one or more decimal digits.
func scanDigits(b []byte, i int) int {
	start := i
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	if i == start {
		return -1
	}
	return i
}

// scanLiteral scans the exact bytes of lit (true, false or null).
func scanLiteral(b []byte, i int, lit string) int {
	if i+len(lit) > len(b) || string(b[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}

// checkValue reports whether b[i:end], delimited by skipValue as kind, is a
// valid scalar. Objects and arrays pass unchecked.
func checkValue(b []byte, i, end int, kind Kind) bool {
	switch kind {
	case String:
		return scanString(b, i) == end
	case Number:
		return scanNumber(b, i) == end
	case Bool:
		return scanLiteral(b, i, "true") == end || scanLiteral(b, i, "false") == end
	case Null:
		return scanLiteral(b, i, "null") == end
	}
	return kind == Object || kind == Array
}
