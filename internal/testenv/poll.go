package testenv

import (
	"testing"
	"time"
)

// Eventually polls cond every few milliseconds until it returns true or timeout
// elapses, then fails the test with msg. It replaces fixed sleeps in tests.
func Eventually(tb testing.TB, timeout time.Duration, msg string, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if cond() {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("timed out after %v: %s", timeout, msg)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// Never checks that cond stays false for the whole window (for asserting that
// something does not happen, e.g. no retry before its time).
func Never(tb testing.TB, window time.Duration, msg string, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(window)
	for time.Now().Before(deadline) {
		if cond() {
			tb.Fatalf("happened but must not: %s", msg)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
