package certs

import (
	"testing"
	"time"
)

func TestRenewAt(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	cases := map[string]struct {
		life time.Duration
		want time.Duration // after start
	}{
		"90 days: at 80 %":            {90 * day, 72 * day},
		"24 h: at 80 %":               {day, day * 4 / 5},
		"5 h: 80 % and 1 h coincide":  {5 * time.Hour, 4 * time.Hour},
		"3 h: an hour before expiry":  {3 * time.Hour, 2 * time.Hour},
		"90 min: at half":             {90 * time.Minute, 45 * time.Minute},
		"4 s: at half":                {4 * time.Second, 2 * time.Second},
		"expired on arrival: at once": {-time.Minute, 0},
		"zero lifetime: at once":      {0, 0},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := renewAt(start, start.Add(tc.life)).Sub(start); got != tc.want {
				t.Fatalf("renewAt after %v, want %v", got, tc.want)
			}
		})
	}
}

func TestRenewDelayHasAFloor(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if d := renewDelay(now.Add(-time.Hour), now.Add(-time.Minute), now); d != minRenewDelay {
		t.Fatalf("expired certificate: delay %v, want %v", d, minRenewDelay)
	}
	if d := renewDelay(now, now.Add(10*time.Hour), now); d != 8*time.Hour {
		t.Fatalf("10 h certificate: delay %v, want 8h", d)
	}
}

func TestRetryDelay(t *testing.T) {
	want := []time.Duration{5 * time.Second, 10 * time.Second, 20 * time.Second, 40 * time.Second,
		80 * time.Second, 160 * time.Second, 5 * time.Minute, 5 * time.Minute}
	for i, w := range want {
		if got := retryDelay(i + 1); got != w {
			t.Errorf("failure %d: %v, want %v", i+1, got, w)
		}
	}
	if got := retryDelay(1000); got != maxRetryDelay {
		t.Errorf("failure 1000: %v", got)
	}
}
