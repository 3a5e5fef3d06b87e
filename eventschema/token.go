package eventschema

import (
	"encoding/json"
	"strconv"
	"unsafe"
)

// tokenKind classifies a raw JSON value.
type tokenKind uint8

const (
	tokAbsent tokenKind = iota // missing or JSON null
	tokString
	tokOther
)

func kindOf(raw []byte) tokenKind {
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return tokAbsent
	case raw[0] == '"':
		return tokString
	default:
		return tokOther
	}
}

// unquote returns the Go string of a JSON string token. Tokens come from
// encoding/json and are therefore well-formed.
func unquote(tok []byte) string {
	if len(tok) < 2 {
		return ""
	}
	inner := tok[1 : len(tok)-1]
	for _, c := range inner {
		if c == '\\' {
			var s string
			if json.Unmarshal(tok, &s) != nil {
				return ""
			}
			return s
		}
	}
	return string(inner)
}

func itoa(n int) string { return strconv.Itoa(n) }

// view returns the Go string of the JSON string token at b[at:at+n]. Without
// escapes it shares b's memory instead of copying: b is an event's Raw, which
// is never modified after parsing (Event's contract), so the string stays valid
// and immutable for as long as the event lives.
func view(b []byte, at, n int) string {
	tok := b[at : at+n]
	if n < 2 {
		return ""
	}
	for _, c := range tok[1 : n-1] {
		if c == '\\' {
			return unquote(tok)
		}
	}
	if n == 2 {
		return ""
	}
	return unsafe.String(&tok[1], n-2)
}

// viewIn returns the string of token tok, a sub-slice of el, read from raw, a
// copy of el that the event keeps (see view).
func viewIn(raw, el, tok []byte) string {
	if len(tok) == 0 {
		return ""
	}
	return view(raw, cap(el)-cap(tok), len(tok))
}
