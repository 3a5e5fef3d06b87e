package resource

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
)

// Problem is how a failed definition is reported, the same way by the REST
// API (status, error.details.code, error.details.message) and in the module
// twin's reported errors.
type Problem struct {
	Status  int
	Code    string
	Message string
}

// TwinError renders p as the original module reported errors in the module
// twin: HttpStatusCode='BadRequest' ErrorCode='InvalidDestination' Message='…'.
func (p Problem) TwinError() string {
	return fmt.Sprintf("HttpStatusCode='%s' ErrorCode='%s' Message='%s'", StatusName(p.Status), p.Code, p.Message)
}

// statusNames are the .NET HttpStatusCode names the original used.
var statusNames = map[int]string{
	400: "BadRequest", 401: "Unauthorized", 403: "Forbidden", 404: "NotFound", 405: "MethodNotAllowed",
	409: "Conflict", 413: "RequestEntityTooLarge", 415: "UnsupportedMediaType", 500: "InternalServerError",
	503: "ServiceUnavailable",
}

// StatusName returns the .NET HttpStatusCode name of an HTTP status
// ("BadRequest"), or the standard status text for others.
func StatusName(status int) string {
	if n, ok := statusNames[status]; ok {
		return n
	}
	return http.StatusText(status)
}

// Explain maps the errors of creating, changing and finding topics and event
// subscriptions (this package's validation errors and the broker's registry
// errors) to Problems. This is the catalogue of those errors. ok is false for
// any other error.
func Explain(err error) (p Problem, ok bool) {
	var re *Error
	switch {
	case errors.As(err, &re):
		return Problem{400, re.Code, re.Message}, true
	case errors.Is(err, broker.ErrTopicNotFound):
		return Problem{404, "TopicNotFound", Sentence(err)}, true
	case errors.Is(err, broker.ErrSubscriptionNotFound):
		return Problem{404, "EventSubscriptionNotFound", Sentence(err)}, true
	case errors.Is(err, broker.ErrInvalidDestination):
		return Problem{400, CodeInvalidDestination, "EventSubscription.Properties.Destination failed validation. Reason: " + destReason(err)}, true
	case errors.Is(err, broker.ErrInvalidFilter):
		return Problem{400, CodeInvalidFilter, "EventSubscription.Properties.Filter failed validation: " + err.Error()}, true
	case errors.Is(err, broker.ErrSchemaMismatch):
		return Problem{400, CodeInvalidDeliverySchema, Sentence(err)}, true
	case errors.Is(err, broker.ErrSchemaChange):
		return Problem{400, CodeInvalidInputSchema, Sentence(err)}, true
	case errors.Is(err, broker.ErrInvalidDeadLetter):
		return Problem{400, CodeInvalidDeadLetter, "EventSubscription.Properties.DeadLetterDestination failed validation: " + destReason(err)}, true
	case errors.Is(err, broker.ErrPersistenceChange):
		return Problem{400, CodeInvalidPersistencePolicy, Sentence(err)}, true
	}
	return Problem{}, false
}

// sentinels are stripped from the front of error texts shown to callers.
var sentinels = []error{
	broker.ErrTopicNotFound, broker.ErrSubscriptionNotFound, broker.ErrBusy, broker.ErrShuttingDown,
	broker.ErrSchemaChange, broker.ErrSchemaMismatch, broker.ErrPersistenceChange, broker.ErrInvalidFilter,
	broker.ErrInvalidDestination, broker.ErrInvalidDeadLetter, destination.ErrInvalidEndpoint, destination.ErrUnsupportedType,
}

// Sentence turns "broker: topic not found: topic 'x' does not exist" into
// "Topic 'x' does not exist."
func Sentence(err error) string {
	msg := err.Error()
	for changed := true; changed; {
		changed = false
		for _, s := range sentinels {
			if p := s.Error() + ": "; strings.HasPrefix(msg, p) {
				msg, changed = msg[len(p):], true
			}
		}
	}
	if msg == "" {
		return msg
	}
	r := []rune(msg)
	r[0] = unicode.ToUpper(r[0])
	msg = string(r)
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg
}

// destReason extracts the destination's own reason from a wrapped broker error.
func destReason(err error) string {
	var u interface{ Unwrap() []error }
	if errors.As(err, &u) {
		for _, e := range u.Unwrap() {
			if e != broker.ErrInvalidDestination && e != broker.ErrInvalidDeadLetter {
				return Sentence(e)
			}
		}
	}
	return Sentence(err)
}
