package filter

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"unicode/utf8"
)

// element is one operand of an advanced filter, decoded with json.Number for
// numbers, with the path that error messages name.
type element struct {
	val   any
	field string
}

// operands extracts the operand list of advanced filter a (see the package
// documentation for the value/values leniency). It returns at least one
// element, or an error.
func operands(a AdvancedFilter, info operatorInfo, base string) ([]element, *Error) {
	own, other := a.Value, a.Values
	ownName, otherName := "value", "values"
	if info.multi {
		own, other = other, own
		ownName, otherName = otherName, ownName
	}
	raw, name := own, ownName
	if !present(own) {
		if !present(other) {
			return nil, missingOperand(info, base)
		}
		raw, name = other, otherName
	}
	field := base + "." + name
	v, err := decodeOperand(raw)
	if err != nil {
		return nil, errorf(field, "The %s property is not valid JSON.", name)
	}
	list, isList := v.([]any)
	switch {
	case !isList:
		return []element{{val: v, field: field}}, nil
	case !info.multi && name == "value":
		return nil, errorf(field, "%s takes a single value, not an array.", info.name)
	case !info.multi && len(list) != 1:
		return nil, errorf(field,
			"%s takes a single value; put it in \"value\" (this array has %d elements).", info.name, len(list))
	case len(list) == 0:
		return nil, errorf(field, "%s needs at least one value; the array is empty.", info.name)
	case len(list) > maxValues:
		return nil, errorf(field,
			"An advanced filter may have at most %d values; this one has %d.", maxValues, len(list))
	}
	elems := make([]element, len(list))
	for i, e := range list {
		elems[i] = element{val: e, field: indexed(field, i)}
	}
	return elems, nil
}

// missingOperand is the error for a filter with neither value nor values.
func missingOperand(info operatorInfo, base string) *Error {
	if info.multi {
		return errorf(base+".values", "%s requires \"values\", a non-empty array.", info.name)
	}
	return errorf(base+".value", "%s requires a \"value\".", info.name)
}

// present reports whether raw holds a JSON value other than null.
func present(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && string(t) != "null"
}

// decodeOperand decodes one complete JSON value, keeping number literals.
func decodeOperand(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errTrailingData
	}
	return v, nil
}

// validateKey checks an advanced filter key against the documented limits.
func validateKey(key, field string) *Error {
	if key == "" {
		return errorf(field, "The key is required; give a property name such as \"Data.Key1\".")
	}
	if n := utf8.RuneCountInString(key); n > maxKeyRunes {
		return errorf(field, "The key is %d characters long; the maximum is %d.", n, maxKeyRunes)
	}
	segs := strings.Split(key, ".")
	if len(segs) > maxKeySegments {
		return errorf(field, "The key %q has %d segments; the maximum is %d.", key, len(segs), maxKeySegments)
	}
	for _, s := range segs {
		if s == "" {
			return errorf(field,
				"The key %q has an empty segment; each dot must separate two non-empty property names.", key)
		}
	}
	return nil
}
