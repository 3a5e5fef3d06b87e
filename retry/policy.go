package retry

import "time"

// The two fixed back-off queues of the original module (delivery-retry.md).
const (
	// FirstRetryDelay is the 1-minute queue: the wait after the first failure.
	FirstRetryDelay = time.Minute
	// LaterRetryDelay is the 10-minute queue: the wait after every later failure.
	LaterRetryDelay = 10 * time.Minute
)

// Level names a back-off queue.
type Level uint8

// The two queues.
const (
	OneMinute Level = iota
	TenMinutes
)

// Delay is the queue's fixed wait.
func (l Level) Delay() time.Duration {
	if l == OneMinute {
		return FirstRetryDelay
	}
	return LaterRetryDelay
}

// Reason says why delivery of an event ended without success. The values are the
// cloud service's deadLetterReason names.
type Reason string

// Reasons a Policy ends delivery.
const (
	MaxDeliveryAttemptsExceeded Reason = "MaxDeliveryAttemptsExceeded"
	TimeToLiveExceeded          Reason = "TimeToLiveExceeded"
)

// Policy holds a subscription's limits: whichever is reached first ends delivery.
type Policy struct {
	// MaxAttempts is the number of delivery attempts, the first included (>= 1).
	MaxAttempts int
	// TTL is how long after publishing an event may still be delivered (> 0).
	TTL time.Duration
}

// AfterFailure decides what follows a failed attempt, given how many attempts
// have been made so far (>= 1): the queue to wait in, or the reason to give up.
func (p Policy) AfterFailure(attempts int) (Level, Reason) {
	if attempts >= p.MaxAttempts {
		return 0, MaxDeliveryAttemptsExceeded
	}
	if attempts <= 1 {
		return OneMinute, ""
	}
	return TenMinutes, ""
}

// Expired reports whether an event published at published may no longer be
// delivered at now. It is checked when an attempt is due, not before.
func (p Policy) Expired(published, now time.Time) bool {
	return now.Sub(published) >= p.TTL
}
