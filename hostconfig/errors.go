package hostconfig

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrInvalidConfig is matched (errors.Is) by every error Load and Validate
// return.
var ErrInvalidConfig = errors.New("invalid config")

// Problem is one invalid variable.
type Problem struct {
	// Name is the variable as documented, e.g.
	// broker__defaultMaxDeliveryAttempts. A problem about several variables
	// together (the IoT Edge set) lists them separated by ", ".
	Name string
	// SetAs is the spelling found in the environment when it differs from
	// Name, e.g. brokers__defaultMaxDeliveryAttempts; otherwise "".
	SetAs string
	// Value is the offending value, "***" for secrets, "" when there is none
	// to show (the variable is missing).
	Value string
	// Reason says what is wrong, e.g. "must be between 1 and 100".
	Reason string
}

// String renders the problem as name="value" (set as spelling): reason.
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.Name)
	if p.Value != "" {
		b.WriteString("=")
		b.WriteString(strconv.Quote(truncate(p.Value)))
	}
	if p.SetAs != "" {
		b.WriteString(" (set as ")
		b.WriteString(p.SetAs)
		b.WriteString(")")
	}
	b.WriteString(": ")
	b.WriteString(p.Reason)
	return b.String()
}

// Error lists every invalid variable, sorted by name then reason. Its text is
// "invalid config: " followed by the problems separated by "; ".
type Error struct {
	Problems []Problem
}

func (e *Error) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = p.String()
	}
	return ErrInvalidConfig.Error() + ": " + strings.Join(parts, "; ")
}

// Unwrap makes errors.Is(err, ErrInvalidConfig) true.
func (e *Error) Unwrap() error { return ErrInvalidConfig }

// newError sorts probs and wraps them, or returns nil when there are none.
func newError(probs []Problem) error {
	if len(probs) == 0 {
		return nil
	}
	sorted := slices.Clone(probs)
	slices.SortStableFunc(sorted, func(a, b Problem) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(a.Reason, b.Reason)
	})
	return &Error{Problems: sorted}
}

// maxShownValue bounds how much of a value an error repeats.
const maxShownValue = 64

// truncate shortens v to maxShownValue bytes on a rune boundary.
func truncate(v string) string {
	if len(v) <= maxShownValue {
		return v
	}
	cut := maxShownValue
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return v[:cut] + "…"
}
