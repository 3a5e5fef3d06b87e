package filter

import (
	"errors"
	"fmt"
)

// Sentinel errors.
var (
	// ErrInvalid matches every *Error returned by Compile (errors.Is), so a
	// caller can map any filter validation failure to HTTP 400.
	ErrInvalid = errors.New("filter: invalid filter")

	// errTrailingData reports bytes after an operand's JSON value; Compile
	// turns it into an *Error naming the field.
	errTrailingData = errors.New("filter: unexpected data after the JSON value")
)

// Error is a validation error returned by Compile.
type Error struct {
	// Field is a JSON-ish path relative to the filter object, such as
	// "advancedFilters[2].values[1]" or "includedEventTypes[0]".
	Field string
	// Message is a complete English sentence saying what is wrong.
	Message string
}

// Error returns "invalid filter: <field>: <message>".
func (e *Error) Error() string {
	if e.Field == "" {
		return "invalid filter: " + e.Message
	}
	return "invalid filter: " + e.Field + ": " + e.Message
}

// Is reports whether target is ErrInvalid.
func (e *Error) Is(target error) bool { return target == ErrInvalid }

// errorf builds an *Error for field with a formatted message.
func errorf(field, format string, args ...any) *Error {
	return &Error{Field: field, Message: fmt.Sprintf(format, args...)}
}

// indexed returns field + "[i]", the path of a list element.
func indexed(field string, i int) string {
	return fmt.Sprintf("%s[%d]", field, i)
}

// describe names the JSON type of a value decoded by decodeOperand, for
// messages such as "but this value is a string".
func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	default:
		return "a number"
	}
}
