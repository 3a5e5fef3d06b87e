package resource

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// flexInt is an integer given as a JSON number or a numeric string (Newtonsoft
// converted both). Set is false when the property was absent or null.
type flexInt struct {
	Set   bool
	Value int
	Bad   bool // present but not an integer
}

func (f *flexInt) UnmarshalJSON(b []byte) error {
	s, set, ok := scalarText(b)
	if !set {
		return nil
	}
	f.Set = true
	n, err := strconv.Atoi(s)
	f.Value, f.Bad = n, !ok || err != nil
	return nil
}

// scalarText returns a JSON number, boolean or string as text (strings
// unquoted, space trimmed); set is false for null, ok is false for a string
// that does not decode.
func scalarText(b []byte) (text string, set, ok bool) {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return "", false, true
	}
	s := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return "", true, false
		}
	}
	return strings.TrimSpace(s), true, true
}

func (f flexInt) ptr() *int {
	if !f.Set {
		return nil
	}
	v := f.Value
	return &v
}

// flexBool is a boolean given as JSON true/false or the strings "true"/"false".
type flexBool struct {
	Set   bool
	Value bool
	Bad   bool
}

func (f *flexBool) UnmarshalJSON(b []byte) error {
	s, set, ok := scalarText(b)
	if !set {
		return nil
	}
	f.Set = true
	v, err := strconv.ParseBool(s)
	f.Value, f.Bad = v, !ok || err != nil
	return nil
}

// flexString is a string property; Bad is set when another JSON type was given.
type flexString struct {
	Set   bool
	Value string
	Bad   bool
}

func (f *flexString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	f.Set = true
	if err := json.Unmarshal(b, &f.Value); err != nil {
		f.Bad = true
	}
	return nil
}

// unwrapStringJSON returns the JSON inside a string token (the module twin encodes
// arrays as strings), or raw itself when it is not a string.
func unwrapStringJSON(raw json.RawMessage) (json.RawMessage, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return raw, true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, false
	}
	inner := json.RawMessage(strings.TrimSpace(s))
	if !json.Valid(inner) {
		return nil, false
	}
	return inner, true
}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}
