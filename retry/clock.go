package retry

import "time"

// Clock is the time source of a Scheduler.
type Clock interface {
	// Now returns the current time. Successive calls never go backwards.
	Now() time.Time
	// AfterFunc calls f in its own goroutine once d has elapsed, unless stop is
	// called first; stop reports whether it prevented the call.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// RealClock is the wall clock.
type RealClock struct{}

// Now returns time.Now().
func (RealClock) Now() time.Time { return time.Now() }

// AfterFunc wraps time.AfterFunc.
func (RealClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}

var _ Clock = RealClock{}
