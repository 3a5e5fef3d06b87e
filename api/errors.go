package api

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/resource"
)

// Error is an API error with its status and detailed code.
type Error struct {
	Status  int
	Code    string
	Message string
	// RetryAfter, when positive, is sent as Retry-After (seconds).
	RetryAfter int
}

func (e *Error) Error() string { return e.Message }

func apiError(status int, code, msg string) *Error {
	return &Error{Status: status, Code: code, Message: msg}
}

// statusNames are the .NET HttpStatusCode names the original used in error.code.
var statusNames = map[int]string{
	400: "BadRequest", 401: "Unauthorized", 403: "Forbidden", 404: "NotFound", 405: "MethodNotAllowed",
	409: "Conflict", 413: "RequestEntityTooLarge", 415: "UnsupportedMediaType", 500: "InternalServerError",
	503: "ServiceUnavailable",
}

// errorBody is the documented error payload.
type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Details struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"details"`
	} `json:"error"`
}

// toAPIError maps package errors to API errors; this is the error catalogue.
func toAPIError(err error) *Error {
	var ae *Error
	var re *resource.Error
	var pe *eventschema.ParseError
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.As(err, &re):
		return apiError(400, re.Code, re.Message)
	case errors.As(err, &pe):
		return parseError(pe)
	case errors.Is(err, broker.ErrTopicNotFound):
		return apiError(404, "TopicNotFound", sentence(err))
	case errors.Is(err, broker.ErrSubscriptionNotFound):
		return apiError(404, "EventSubscriptionNotFound", sentence(err))
	case errors.Is(err, broker.ErrBusy):
		return &Error{Status: 503, Code: "ServerBusy", RetryAfter: 5,
			Message: "Too many undelivered events are buffered; retry later. (" + err.Error() + ")"}
	case errors.Is(err, broker.ErrShuttingDown):
		return &Error{Status: 503, Code: "ShuttingDown", RetryAfter: 10, Message: "The module is shutting down and accepts no more events."}
	case errors.Is(err, broker.ErrInvalidDestination):
		return apiError(400, resource.CodeInvalidDestination, "EventSubscription.Properties.Destination failed validation. Reason: "+destReason(err))
	case errors.Is(err, broker.ErrInvalidFilter):
		return apiError(400, resource.CodeInvalidFilter, "EventSubscription.Properties.Filter failed validation: "+err.Error())
	case errors.Is(err, broker.ErrSchemaMismatch):
		return apiError(400, resource.CodeInvalidDeliverySchema, sentence(err))
	case errors.Is(err, broker.ErrSchemaChange):
		return apiError(400, resource.CodeInvalidInputSchema, sentence(err))
	case errors.Is(err, broker.ErrInvalidDeadLetter):
		return apiError(400, resource.CodeInvalidDeadLetter, "EventSubscription.Properties.DeadLetterDestination failed validation: "+destReason(err))
	case errors.Is(err, broker.ErrPersistenceChange):
		return apiError(400, resource.CodeInvalidPersistencePolicy, sentence(err))
	default:
		return apiError(500, "InternalError", "An internal error occurred.")
	}
}

func parseError(pe *eventschema.ParseError) *Error {
	switch {
	case errors.Is(pe, eventschema.ErrTooLarge):
		return apiError(413, "EventTooLarge", pe.Message)
	case errors.Is(pe, eventschema.ErrInvalidJSON):
		return apiError(400, "InvalidJson", pe.Message)
	default:
		return apiError(400, "InvalidEvent", pe.Message)
	}
}

// writeError writes the error response and logs it once.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) *Error {
	ae := toAPIError(err)
	var body errorBody
	body.Error.Code = statusNames[ae.Status]
	if body.Error.Code == "" {
		body.Error.Code = http.StatusText(ae.Status)
	}
	body.Error.Details.Code = ae.Code
	body.Error.Details.Message = ae.Message
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	if ae.RetryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(ae.RetryAfter))
	}
	w.WriteHeader(ae.Status)
	_ = json.NewEncoder(w).Encode(body)
	ev := s.log.Debug()
	if ae.Status >= 500 && ae.Status != 503 {
		ev = s.log.Error().AnErr("cause", err)
	}
	ev.Str("method", r.Method).Str("path", r.URL.Path).Int("status", ae.Status).Str("code", ae.Code).Str("message", ae.Message).Msg("request failed")
	return ae
}
