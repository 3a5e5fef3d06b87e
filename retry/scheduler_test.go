package retry_test

import (
	"sync"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/internal/testenv"
	"github.com/edgegrid/edgegrid/retry"
)

// recorder collects due items with the clock time they became due.
type recorder struct {
	mu    sync.Mutex
	clock *testenv.ManualClock
	got   []int
	at    []time.Time
}

func (r *recorder) due(it int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, it)
	r.at = append(r.at, r.clock.Now())
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.got)
}

func newScheduler(t *testing.T) (*retry.Scheduler[int], *recorder, *testenv.ManualClock) {
	t.Helper()
	clock := testenv.NewManualClock()
	rec := &recorder{clock: clock}
	s := retry.NewScheduler(clock, rec.due)
	t.Cleanup(func() { s.Close() })
	return s, rec, clock
}

func TestOneMinuteQueue(t *testing.T) {
	s, rec, clock := newScheduler(t)
	start := clock.Now()
	s.Add(1, retry.OneMinute)
	clock.Advance(59 * time.Second)
	testenv.Never(t, 20*time.Millisecond, "item due before one minute", func() bool { return rec.count() > 0 })
	clock.Advance(time.Second)
	testenv.Eventually(t, time.Second, "item due at one minute", func() bool { return rec.count() == 1 })
	if got := rec.at[0].Sub(start); got != time.Minute {
		t.Fatalf("due after %v", got)
	}
}

func TestTenMinuteQueueAndOrder(t *testing.T) {
	s, rec, clock := newScheduler(t)
	for i := 0; i < 5; i++ {
		s.Add(i, retry.TenMinutes)
		clock.Advance(time.Second)
	}
	if one, ten := s.Len(); one != 0 || ten != 5 {
		t.Fatalf("Len = %d,%d", one, ten)
	}
	clock.Advance(10*time.Minute - 5*time.Second)
	testenv.Eventually(t, time.Second, "first item due", func() bool { return rec.count() == 1 })
	clock.Advance(10 * time.Second)
	testenv.Eventually(t, time.Second, "all due", func() bool { return rec.count() == 5 })
	for i, v := range rec.got {
		if v != i {
			t.Fatalf("order %v", rec.got)
		}
	}
}

func TestQueuesInterleave(t *testing.T) {
	s, rec, clock := newScheduler(t)
	s.Add(10, retry.TenMinutes) // due at 10m
	clock.Advance(2 * time.Minute)
	s.Add(1, retry.OneMinute) // due at 3m, earlier than the 10-minute head
	clock.Advance(time.Minute)
	testenv.Eventually(t, time.Second, "1-minute item first", func() bool { return rec.count() == 1 })
	clock.Advance(7 * time.Minute)
	testenv.Eventually(t, time.Second, "10-minute item", func() bool { return rec.count() == 2 })
	if rec.got[0] != 1 || rec.got[1] != 10 {
		t.Fatalf("got %v", rec.got)
	}
}

func TestOneTimerForManyItems(t *testing.T) {
	s, _, clock := newScheduler(t)
	for i := 0; i < 1000; i++ {
		s.Add(i, retry.OneMinute)
		s.Add(i, retry.TenMinutes)
	}
	testenv.Eventually(t, time.Second, "timer armed", func() bool { return clock.Pending() == 1 })
}

func TestCloseReturnsPending(t *testing.T) {
	s, rec, clock := newScheduler(t)
	s.Add(1, retry.OneMinute)
	s.Add(2, retry.TenMinutes)
	left := s.Close()
	if len(left) != 2 {
		t.Fatalf("Close returned %v", left)
	}
	if s.Add(3, retry.OneMinute) {
		t.Fatal("Add after Close accepted an item")
	}
	if s.Close() != nil {
		t.Fatal("second Close returned items")
	}
	clock.Advance(time.Hour)
	testenv.Never(t, 20*time.Millisecond, "due after close", func() bool { return rec.count() > 0 })
}
