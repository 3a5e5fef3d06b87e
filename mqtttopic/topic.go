// Package mqtttopic checks MQTT 3.1.1 topic names and topic filters and
// matches one against the other (MQTT 3.1.1 §4.7). It has no dependencies, so
// the configuration, the ingest and the Mqtt destination apply the same rules.
package mqtttopic

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxLength is the longest topic name or filter MQTT can carry: its length is
// a 16-bit prefix on the wire (§1.5.3).
const MaxLength = 65535

// Errors of the package. ValidateFilter, ValidateName and ValidatePublishName
// return an *Error whose Kind is one of them.
var (
	// ErrEmpty: a topic name or filter must have at least one character (§4.7.3).
	ErrEmpty = errors.New("mqtttopic: empty")
	// ErrTooLong: longer than MaxLength bytes.
	ErrTooLong = errors.New("mqtttopic: too long")
	// ErrEncoding: not valid UTF-8, or contains U+0000 (§1.5.3).
	ErrEncoding = errors.New("mqtttopic: invalid encoding")
	// ErrWildcard: a wildcard where it is not allowed (§4.7.1).
	ErrWildcard = errors.New("mqtttopic: misplaced wildcard")
	// ErrReserved: a name or filter this project does not accept although MQTT
	// does ($-topics for publishing, $share/ shared subscriptions).
	ErrReserved = errors.New("mqtttopic: reserved topic")
)

// Error is a validation failure: Reason is a plain sentence for the user,
// Kind the sentinel above it matches with errors.Is.
type Error struct {
	Kind   error
	Reason string
}

func (e *Error) Error() string { return e.Reason }

// Unwrap returns Kind.
func (e *Error) Unwrap() error { return e.Kind }

func fail(kind error, format string, args ...any) error {
	return &Error{Kind: kind, Reason: fmt.Sprintf(format, args...)}
}

// checkText applies the rules names and filters share.
func checkText(kind, s string) error {
	switch {
	case s == "":
		return fail(ErrEmpty, "%s must not be empty", kind)
	case len(s) > MaxLength:
		return fail(ErrTooLong, "%s is %d bytes long; MQTT allows at most %d", kind, len(s), MaxLength)
	case !utf8.ValidString(s):
		return fail(ErrEncoding, "%s is not valid UTF-8", kind)
	case strings.IndexByte(s, 0) >= 0:
		return fail(ErrEncoding, "%s contains a NUL character", kind)
	}
	return nil
}

// ValidateFilter checks a subscription topic filter: '#' only as the whole
// last level, '+' only as a whole level. Shared subscriptions ($share/...)
// are refused: the messages they deliver carry the plain topic, so they
// could not be told apart from other routes.
func ValidateFilter(filter string) error {
	if err := checkText("topic filter", filter); err != nil {
		return err
	}
	if strings.HasPrefix(filter, "$share/") {
		return fail(ErrReserved, "shared subscriptions ($share/...) are not supported")
	}
	levels := strings.Split(filter, "/")
	for i, l := range levels {
		switch {
		case l == "#" && i != len(levels)-1:
			return fail(ErrWildcard, "'#' must be the last level of a topic filter")
		case l != "#" && strings.Contains(l, "#"):
			return fail(ErrWildcard, "'#' must occupy a whole level (level %d is %q)", i+1, l)
		case l != "+" && strings.Contains(l, "+"):
			return fail(ErrWildcard, "'+' must occupy a whole level (level %d is %q)", i+1, l)
		}
	}
	return nil
}

// ValidateName checks a topic name as a client may publish to it: no
// wildcard characters.
func ValidateName(name string) error {
	if err := checkText("topic", name); err != nil {
		return err
	}
	if strings.ContainsAny(name, "+#") {
		return fail(ErrWildcard, "a topic name must not contain '+' or '#'")
	}
	return nil
}

// ValidatePublishName is ValidateName plus this project's rule for topics it
// publishes to: not starting with '$', which brokers reserve for their own
// use ($SYS) and which '#' subscribers never see.
func ValidatePublishName(name string) error {
	if err := ValidateName(name); err != nil {
		return err
	}
	if name[0] == '$' {
		return fail(ErrReserved, "topics starting with '$' are reserved for the MQTT broker")
	}
	return nil
}
