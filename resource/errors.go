package resource

import (
	"errors"
	"fmt"
)

// ErrInvalid marks every validation error of this package (HTTP 400).
var ErrInvalid = errors.New("resource: invalid request")

// Error is a validation error with the original module's detailed error code.
type Error struct {
	// Code is the detailed error code, e.g. InvalidDestination.
	Code string
	// Message is a complete sentence for the caller.
	Message string
}

func (e *Error) Error() string { return e.Message }

// Unwrap lets errors.Is(err, ErrInvalid) match.
func (e *Error) Unwrap() error { return ErrInvalid }

// Detailed error codes.
const (
	CodeInvalidRequestBody       = "InvalidRequestBody"
	CodeInvalidName              = "InvalidName"
	CodeInvalidInputSchema       = "InvalidInputSchema"
	CodeInvalidDeliverySchema    = "InvalidEventDeliverySchema"
	CodeInvalidDestination       = "InvalidDestination"
	CodeInvalidFilter            = "InvalidFilter"
	CodeInvalidRetryPolicy       = "InvalidRetryPolicy"
	CodeInvalidDeliveryPolicy    = "InvalidDeliveryPolicy"
	CodeInvalidPersistencePolicy = "InvalidPersistencePolicy"
	CodeInvalidDeadLetter        = "InvalidDeadLetterDestination"
)

func invalid(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// destinationError formats a destination failure the way the original did
// ("EventSubscription.Properties.Destination failed validation. Reason: ...").
func destinationError(reason string) *Error {
	return &Error{Code: CodeInvalidDestination,
		Message: "EventSubscription.Properties.Destination failed validation. Reason: " + reason}
}
