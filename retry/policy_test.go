package retry

import (
	"testing"
	"time"
)

func TestPolicyAfterFailure(t *testing.T) {
	p := Policy{MaxAttempts: 4, TTL: time.Hour}
	tests := map[string]struct {
		attempts  int
		wantLevel Level
		wantStop  Reason
	}{
		"after the first attempt: 1-minute queue":   {1, OneMinute, ""},
		"after the second attempt: 10-minute queue": {2, TenMinutes, ""},
		"after the third: still 10 minutes":         {3, TenMinutes, ""},
		"max attempts reached":                      {4, 0, MaxDeliveryAttemptsExceeded},
		"beyond max":                                {9, 0, MaxDeliveryAttemptsExceeded},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			l, r := p.AfterFailure(tc.attempts)
			if r != tc.wantStop || (r == "" && l != tc.wantLevel) {
				t.Fatalf("AfterFailure(%d) = %v,%q", tc.attempts, l, r)
			}
		})
	}
	if _, r := (Policy{MaxAttempts: 1, TTL: time.Hour}).AfterFailure(1); r != MaxDeliveryAttemptsExceeded {
		t.Fatalf("a single-attempt policy must give up after one failure, got %q", r)
	}
}

func TestPolicyExpired(t *testing.T) {
	p := Policy{MaxAttempts: 30, TTL: 2 * time.Hour}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := map[string]struct {
		at   time.Duration
		want bool
	}{
		"just published":    {0, false},
		"one second before": {2*time.Hour - time.Second, false},
		"exactly at TTL":    {2 * time.Hour, true},
		"after TTL":         {3 * time.Hour, true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := p.Expired(t0, t0.Add(tc.at)); got != tc.want {
				t.Fatalf("Expired at +%v = %v", tc.at, got)
			}
		})
	}
}

// TestScheduleWithDefaults derives the documented consequence of the defaults:
// attempts at 0, 1, 11, 21, ... minutes; with a 2-hour TTL the attempt due at
// 121 minutes is the first found expired, after 13 attempts.
func TestScheduleWithDefaults(t *testing.T) {
	p := Policy{MaxAttempts: 30, TTL: 7200 * time.Second}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now, attempts := t0, 0
	var times []time.Duration
	for {
		if attempts > 0 && p.Expired(t0, now) {
			break
		}
		attempts++
		times = append(times, now.Sub(t0))
		l, r := p.AfterFailure(attempts)
		if r != "" {
			break
		}
		now = now.Add(l.Delay())
	}
	if attempts != 13 || times[1] != time.Minute || times[2] != 11*time.Minute || times[12] != 111*time.Minute {
		t.Fatalf("attempts=%d times=%v", attempts, times)
	}
}

func FuzzPolicy(f *testing.F) {
	f.Add(30, int64(7200), 1, int64(60))
	f.Add(1, int64(1), 1, int64(0))
	f.Fuzz(func(t *testing.T, maxAttempts int, ttlSec int64, attempts int, ageSec int64) {
		if maxAttempts < 1 || maxAttempts > 1000 || attempts < 1 || attempts > 1000 || ttlSec < 1 || ttlSec > 1<<20 || ageSec < 0 || ageSec > 1<<22 {
			t.Skip()
		}
		p := Policy{MaxAttempts: maxAttempts, TTL: time.Duration(ttlSec) * time.Second}
		l, r := p.AfterFailure(attempts)
		if (attempts >= maxAttempts) != (r == MaxDeliveryAttemptsExceeded) {
			t.Fatalf("attempts %d of %d: reason %q", attempts, maxAttempts, r)
		}
		if r == "" && l.Delay() != FirstRetryDelay && l.Delay() != LaterRetryDelay {
			t.Fatalf("unexpected delay %v", l.Delay())
		}
		t0 := time.Unix(0, 0)
		if p.Expired(t0, t0.Add(time.Duration(ageSec)*time.Second)) != (ageSec >= ttlSec) {
			t.Fatalf("Expired(age %d, ttl %d) wrong", ageSec, ttlSec)
		}
	})
}
