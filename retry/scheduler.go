package retry

import (
	"sync"
	"time"
)

// Scheduler holds items in the two back-off queues and hands each one to its due
// function when its wait is over. It owns one goroutine, stopped by Close.
// All methods are safe for concurrent use.
type Scheduler[T any] struct {
	clock Clock
	due   func(T)
	epoch time.Time

	mu       sync.Mutex
	queues   [2]fifo[T] // indexed by Level
	stopT    func() bool
	armedFor int64 // due offset the timer is armed for; -1 when none
	armGen   uint64
	closed   bool

	wake chan struct{}
	quit chan struct{}
	done chan struct{}
}

// NewScheduler starts a scheduler. due is called from the scheduler's goroutine,
// one item at a time, in due order; it must not block for long.
func NewScheduler[T any](clock Clock, due func(T)) *Scheduler[T] {
	s := &Scheduler[T]{
		clock: clock, due: due, epoch: clock.Now(), armedFor: -1,
		wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{}),
	}
	go s.loop()
	return s
}

// Add puts item in the queue of the given level; it becomes due after the
// level's delay. After Close, Add reports false and keeps nothing.
func (s *Scheduler[T]) Add(item T, level Level) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	q := &s.queues[level]
	wasEmpty := q.len() == 0
	q.push(item, s.offset(s.clock.Now())+int64(level.Delay()))
	if wasEmpty {
		s.signal()
	}
	return true
}

// Len returns how many items wait in the 1-minute and 10-minute queues.
func (s *Scheduler[T]) Len() (oneMinute, tenMinutes int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queues[OneMinute].len(), s.queues[TenMinutes].len()
}

// Flush removes and returns every waiting item at once, due or not, leaving the
// scheduler running (used to give queued retries a last attempt at shutdown).
func (s *Scheduler[T]) Flush() []T {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append(s.queues[OneMinute].drain(), s.queues[TenMinutes].drain()...)
}

// Close stops the scheduler, waits for its goroutine and returns the items that
// were still waiting. It is idempotent; later calls return nil.
func (s *Scheduler[T]) Close() []T {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		<-s.done
		return nil
	}
	s.closed = true
	if s.stopT != nil {
		s.stopT()
	}
	close(s.quit)
	s.mu.Unlock()
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	return append(s.queues[OneMinute].drain(), s.queues[TenMinutes].drain()...)
}

func (s *Scheduler[T]) offset(t time.Time) int64 { return int64(t.Sub(s.epoch)) }

func (s *Scheduler[T]) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *Scheduler[T]) loop() {
	defer close(s.done)
	var ready []T
	for {
		ready = s.collect(ready[:0])
		for i, it := range ready {
			s.due(it)
			var zero T
			ready[i] = zero
		}
		select {
		case <-s.wake:
		case <-s.quit:
			return
		}
	}
}

// collect pops every due item into ready and arms the timer for the next one.
func (s *Scheduler[T]) collect(ready []T) []T {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ready
	}
	now := s.offset(s.clock.Now())
	next := int64(-1)
	for l := range s.queues {
		q := &s.queues[l]
		for {
			d, ok := q.peekDue()
			if !ok {
				break
			}
			if d > now {
				if next < 0 || d < next {
					next = d
				}
				break
			}
			ready = append(ready, q.pop())
		}
	}
	s.arm(next, now)
	return ready
}

// arm sets the single timer to fire at offset next (-1: no timer needed).
func (s *Scheduler[T]) arm(next, now int64) {
	if next == s.armedFor {
		return
	}
	if s.stopT != nil {
		s.stopT()
		s.stopT = nil
	}
	s.armedFor = next
	s.armGen++
	if next >= 0 {
		gen := s.armGen
		s.stopT = s.clock.AfterFunc(time.Duration(next-now), func() { s.fire(gen) })
	}
}

// fire runs when the timer armed as generation gen expires.
func (s *Scheduler[T]) fire(gen uint64) {
	s.mu.Lock()
	if gen == s.armGen {
		s.armedFor = -1
		s.stopT = nil
	}
	s.mu.Unlock()
	s.signal()
}
