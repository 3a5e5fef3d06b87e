package destination

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"time"
)

// Outcome is what the broker does after an attempt.
type Outcome uint8

// Outcomes.
const (
	// Delivered: done.
	Delivered Outcome = iota
	// Retry: try again per the retry policy.
	Retry
	// Drop: never retried (the destination said the request can never succeed).
	Drop
)

func (o Outcome) String() string {
	switch o {
	case Delivered:
		return "Delivered"
	case Retry:
		return "Retry"
	default:
		return "Drop"
	}
}

// Result describes one attempt.
type Result struct {
	Outcome Outcome
	// Status is the HTTP status (or an equivalent protocol code); 0 when no answer came.
	Status int
	// Reason is the cloud's lastDeliveryOutcome vocabulary: Delivered, BadRequest,
	// Unauthorized, Forbidden, NotFound, PayloadTooLarge, Busy, TimedOut,
	// SocketError, ResolutionError, Canceled, Aborted.
	Reason string
	// Err is the transport error, when there was one.
	Err error
	// Duration is how long the attempt took.
	Duration time.Duration
	// Refused lists events of the delivery that the destination refused for
	// good without sending them (an event too large for any request), while
	// Outcome applies to the others. The broker drops the refused events with
	// their own reason and detail. A sender that refuses every event answers
	// Drop and lists them all.
	Refused []Refusal
}

// Refusal is one event a sender refused (see Result.Refused).
type Refusal struct {
	// Index is the event's position in Delivery.Events.
	Index int
	// Reason is a lastDeliveryOutcome word, e.g. PayloadTooLarge.
	Reason string
	// Detail explains the refusal for the drop log.
	Detail string
}

// String renders the outcome for logs, e.g. "503 Busy" or "SocketError: connection refused".
func (r Result) String() string {
	if r.Status != 0 {
		return fmt.Sprintf("%d %s", r.Status, r.Reason)
	}
	if r.Err != nil {
		return r.Reason + ": " + r.Err.Error()
	}
	return r.Reason
}

// Classify maps an HTTP answer or a transport error to a Result. This is the one
// table of delivery outcomes (the cloud service's current rules):
//
//	200-204          Delivered (the only success codes)
//	400 BadRequest   Drop: the same request can never succeed
//	401 Unauthorized Drop: credentials will not fix themselves between retries
//	403 Forbidden    Drop: the endpoint refuses delivery
//	413 TooLarge     Drop: the batch will not get smaller
//	other statuses   Retry (404, 408, 429, 5xx, 205-399 and the rest)
//	timeout          Retry (TimedOut: no answer within the delivery timeout)
//	DNS failure      Retry (ResolutionError)
//	other transport  Retry (SocketError: refused, reset, TLS failure...)
//	canceled         Retry (Canceled: shutdown interrupted the attempt)
func Classify(status int, err error) Result {
	if err != nil {
		return classifyError(err)
	}
	switch {
	case status >= 200 && status <= 204:
		return Result{Outcome: Delivered, Status: status, Reason: "Delivered"}
	case status == http.StatusBadRequest:
		return Result{Outcome: Drop, Status: status, Reason: "BadRequest"}
	case status == http.StatusUnauthorized:
		return Result{Outcome: Drop, Status: status, Reason: "Unauthorized"}
	case status == http.StatusForbidden:
		return Result{Outcome: Drop, Status: status, Reason: "Forbidden"}
	case status == http.StatusRequestEntityTooLarge:
		return Result{Outcome: Drop, Status: status, Reason: "PayloadTooLarge"}
	case status == http.StatusNotFound:
		return Result{Outcome: Retry, Status: status, Reason: "NotFound"}
	case status == http.StatusRequestTimeout || status == http.StatusGatewayTimeout:
		return Result{Outcome: Retry, Status: status, Reason: "TimedOut"}
	case status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable:
		return Result{Outcome: Retry, Status: status, Reason: "Busy"}
	default:
		return Result{Outcome: Retry, Status: status, Reason: http.StatusText(status)}
	}
}

func classifyError(err error) Result {
	r := Result{Outcome: Retry, Err: err}
	var dnsErr *net.DNSError
	var netErr net.Error
	switch {
	case errors.Is(err, context.Canceled):
		r.Reason = "Canceled"
	case errors.Is(err, context.DeadlineExceeded):
		r.Reason = "TimedOut"
	case errors.As(err, &dnsErr):
		r.Reason = "ResolutionError"
	case errors.As(err, &netErr) && netErr.Timeout():
		r.Reason = "TimedOut"
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET):
		r.Reason = "SocketError"
	default:
		r.Reason = "SocketError"
	}
	return r
}
