package certs

import "time"

// Renewal timing.
const (
	// renewMargin: renew at least this long before expiry ("1 h before expiry")...
	renewMargin = time.Hour
	// ...or once 80 % of the lifetime has passed, whichever comes first; the
	// hour is capped at half the lifetime so short-lived certificates are
	// not renewed the moment they arrive.
	renewFraction = 0.8
	// minRenewDelay keeps a runtime that hands out nearly expired
	// certificates from being asked again in a tight loop.
	minRenewDelay = time.Second
	// firstRetryDelay and maxRetryDelay bound the back-off after a failed
	// renewal: 5 s, 10 s, 20 s … 5 min. The workload client has already
	// retried transient errors for about 15 s inside each attempt.
	firstRetryDelay = 5 * time.Second
	maxRetryDelay   = 5 * time.Minute
)

// renewAt is when a certificate held since start and expiring at notAfter
// is renewed: when 80 % of its lifetime has passed or an hour before expiry,
// whichever comes first, but not before half its lifetime.
func renewAt(start, notAfter time.Time) time.Time {
	life := notAfter.Sub(start)
	if life <= 0 {
		return start
	}
	margin := max(time.Duration(float64(life)*(1-renewFraction)), min(renewMargin, life/2))
	return notAfter.Add(-margin)
}

// renewDelay is how long after now to renew; at least minRenewDelay.
func renewDelay(start, notAfter, now time.Time) time.Duration {
	return max(renewAt(start, notAfter).Sub(now), minRenewDelay)
}

// retryDelay is the wait after the n-th consecutive failure (n ≥ 1).
func retryDelay(n int) time.Duration {
	d := firstRetryDelay
	for i := 1; i < n && d < maxRetryDelay; i++ {
		d *= 2
	}
	return min(d, maxRetryDelay)
}
