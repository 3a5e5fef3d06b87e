package filter

import "bytes"

// Lenient skipping: these functions only find where a value ends, which is
// all Lookup needs for the members it steps over. Like the strict scanner
// they return -1 on input they cannot delimit, never allocate, never recurse
// and never read outside b.

// skipValue finds the end of the value starting at b[i] without validating
// it: strings and containers are only delimited, scalars run to the next
// delimiter. The kind is read from the first byte. It is the fast path for
// values that Lookup steps over; the value finally returned is re-checked
// with checkValue.
func skipValue(b []byte, i int) (int, Kind) {
	if i >= len(b) {
		return -1, Invalid
	}
	switch c := b[i]; {
	case c == '"':
		return skipString(b, i), String
	case c == '{':
		return skipContainer(b, i), Object
	case c == '[':
		return skipContainer(b, i), Array
	case c == 't' || c == 'f':
		return skipScalar(b, i), Bool
	case c == 'n':
		return skipScalar(b, i), Null
	case c == '-' || ('0' <= c && c <= '9'):
		return skipScalar(b, i), Number
	}
	return -1, Invalid
}

// skipScalar returns the index of the first delimiter after b[i].
func skipScalar(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ':', '"', '{', '[', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// skipString finds the end of the string opening at b[i]: the first quote
// not preceded by an odd number of backslashes. It does not validate the
// content, which lets it search with bytes.IndexByte.
func skipString(b []byte, i int) int {
	start := i + 1
	for i = start; i <= len(b); i++ {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		i += j
		k := i - 1
		for k >= start && b[k] == '\\' {
			k--
		}
		if (i-1-k)%2 == 0 {
			return i + 1
		}
	}
	return -1
}

// skipContainer finds the end of the object or array opening at b[i] by
// counting brackets outside strings. It does not check the structure inside
// (the caller validated the event as JSON; only the path being walked is
// parsed strictly), and it uses a counter rather than recursion so that deep
// nesting cannot exhaust the stack.
func skipContainer(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			if i = skipString(b, i); i < 0 {
				return -1
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
		i++
	}
	return -1
}
