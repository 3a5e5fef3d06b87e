package eventschema

import (
	"errors"
	"fmt"
)

// Sentinel errors. ParseError wraps one of them, so callers can map them to an
// HTTP status with errors.Is.
var (
	// ErrInvalidJSON: the body is not well-formed JSON.
	ErrInvalidJSON = errors.New("eventschema: invalid JSON")
	// ErrInvalidEvent: the body is JSON but breaks the schema.
	ErrInvalidEvent = errors.New("eventschema: invalid event")
	// ErrTooLarge: an event is larger than MaxEventSize.
	ErrTooLarge = errors.New("eventschema: event too large")
	// ErrEmpty: the request holds no event.
	ErrEmpty = errors.New("eventschema: no events")
)

// ParseError tells which event of a request is wrong and why.
type ParseError struct {
	// Index is the position of the event in the request, -1 for the body as a whole.
	Index int
	// Field is the offending property ("" when the event as a whole is wrong).
	Field string
	// Message is a complete sentence for the caller.
	Message string
	// Kind is one of the sentinel errors above.
	Kind error
}

func (e *ParseError) Error() string { return e.Message }

// Unwrap returns the sentinel kind.
func (e *ParseError) Unwrap() error { return e.Kind }

func bodyError(kind error, format string, args ...any) *ParseError {
	return &ParseError{Index: -1, Message: fmt.Sprintf(format, args...), Kind: kind}
}

func eventError(i int, field, format string, args ...any) *ParseError {
	msg := fmt.Sprintf(format, args...)
	if field != "" {
		msg = fmt.Sprintf("Event %d: property '%s' %s", i, field, msg)
	} else {
		msg = fmt.Sprintf("Event %d: %s", i, msg)
	}
	return &ParseError{Index: i, Field: field, Message: msg, Kind: ErrInvalidEvent}
}
