package retry

import (
	"testing"
	"time"
)

// frozenClock never fires timers, so benchmarks measure queue work only.
type frozenClock struct{ t time.Time }

func (c frozenClock) Now() time.Time                              { return c.t }
func (c frozenClock) AfterFunc(time.Duration, func()) func() bool { return func() bool { return true } }

type payload struct{ n int }

var sinkItem *payload

// BenchmarkFIFOWith100kPending measures one push plus one pop while 100,000
// items wait in the queue.
func BenchmarkFIFOWith100kPending(b *testing.B) {
	var q fifo[*payload]
	for i := 0; i < 100_000; i++ {
		q.push(&payload{i}, int64(i))
	}
	p := &payload{}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		q.push(p, int64(100_000+i))
		sinkItem = q.pop()
	}
}

// BenchmarkSchedulerAdd measures Add with a growing backlog (100k+ pending).
func BenchmarkSchedulerAdd(b *testing.B) {
	s := NewScheduler(frozenClock{time.Unix(0, 0)}, func(*payload) {})
	defer s.Close()
	p := &payload{}
	for i := 0; i < 100_000; i++ {
		s.Add(p, TenMinutes)
	}
	b.ReportAllocs()
	for b.Loop() {
		s.Add(p, OneMinute)
	}
}
