// Package testenv holds test-only helpers: a manual clock, generated certificates,
// recording webhook servers and polling helpers. Nothing outside tests imports it.
package testenv

import (
	"sort"
	"sync"
	"time"
)

// ManualClock is a clock that moves only when Advance is called. It satisfies
// retry.Clock. Timers whose time has come run synchronously inside Advance, in
// due order, so a test observes their effects once Advance returns (plus whatever
// goroutines they signal).
type ManualClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*manualTimer
	seq    int
}

type manualTimer struct {
	at   time.Time
	seq  int
	f    func()
	dead bool
}

// NewManualClock starts at a fixed, arbitrary instant.
func NewManualClock() *ManualClock {
	return &ManualClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

// Now returns the clock's time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc registers f to run when the clock reaches now+d.
func (c *ManualClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	t := &manualTimer{at: c.now.Add(d), seq: c.seq, f: f}
	c.timers = append(c.timers, t)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !t.dead
		t.dead = true
		return was
	}
}

// Advance moves the clock forward by d, firing due timers in order; each timer
// sees Now() equal to its own due time.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	target := c.now.Add(d)
	c.mu.Unlock()
	for {
		t := c.nextDue(target)
		if t == nil {
			break
		}
		t.f()
	}
	c.mu.Lock()
	c.now = target
	c.mu.Unlock()
}

// Pending reports how many timers are armed and not yet fired or stopped.
func (c *ManualClock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range c.timers {
		if !t.dead {
			n++
		}
	}
	return n
}

// nextDue removes and returns the earliest live timer due at or before target,
// setting the clock to its time.
func (c *ManualClock) nextDue(target time.Time) *manualTimer {
	c.mu.Lock()
	defer c.mu.Unlock()
	live := c.timers[:0]
	for _, t := range c.timers {
		if !t.dead {
			live = append(live, t)
		}
	}
	c.timers = live
	sort.Slice(c.timers, func(i, j int) bool {
		if c.timers[i].at.Equal(c.timers[j].at) {
			return c.timers[i].seq < c.timers[j].seq
		}
		return c.timers[i].at.Before(c.timers[j].at)
	})
	if len(c.timers) == 0 || c.timers[0].at.After(target) {
		return nil
	}
	t := c.timers[0]
	t.dead = true
	if t.at.After(c.now) {
		c.now = t.at
	}
	return t
}
