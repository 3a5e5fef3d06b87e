package api

import (
	"errors"
	"strings"
	"unicode"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
)

// sentinels are stripped from the front of error texts shown to callers.
var sentinels = []error{
	broker.ErrTopicNotFound, broker.ErrSubscriptionNotFound, broker.ErrBusy, broker.ErrShuttingDown,
	broker.ErrSchemaChange, broker.ErrSchemaMismatch, broker.ErrPersistenceChange, broker.ErrInvalidFilter,
	broker.ErrInvalidDestination, broker.ErrInvalidDeadLetter, destination.ErrInvalidEndpoint, destination.ErrUnsupportedType,
}

// sentence turns "broker: topic not found: topic 'x' does not exist" into
// "Topic 'x' does not exist."
func sentence(err error) string {
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
				return sentence(e)
			}
		}
	}
	return sentence(err)
}
