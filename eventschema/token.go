package eventschema

import (
	"encoding/json"
	"strconv"
)

// tokenKind classifies a raw JSON value.
type tokenKind uint8

const (
	tokAbsent tokenKind = iota // missing or JSON null
	tokString
	tokOther
)

func kindOf(raw json.RawMessage) tokenKind {
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
