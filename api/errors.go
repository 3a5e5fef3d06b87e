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

// toAPIError maps package errors to API errors: definition errors through
// resource.Explain (shared with the module twin), publish errors here.
func toAPIError(err error) *Error {
	var ae *Error
	var pe *eventschema.ParseError
	if errors.As(err, &ae) {
		return ae
	}
	if p, ok := resource.Explain(err); ok {
		return apiError(p.Status, p.Code, p.Message)
	}
	switch {
	case errors.As(err, &pe):
		return parseError(pe)
	case errors.Is(err, broker.ErrBusy):
		return &Error{Status: 503, Code: "ServerBusy", RetryAfter: 5,
			Message: "Too many undelivered events are buffered; retry later. (" + err.Error() + ")"}
	case errors.Is(err, broker.ErrShuttingDown):
		return &Error{Status: 503, Code: "ShuttingDown", RetryAfter: 10, Message: "The module is shutting down and accepts no more events."}
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
	body.Error.Code = resource.StatusName(ae.Status)
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
