package broker

import "sync"

// shrinkAbove is the capacity above which an emptied queue releases its
// backing array (a burst of 100k events must not pin megabytes afterwards).
const shrinkAbove = 4096

// readyQueue is a subscription's FIFO of deliveries waiting for an attempt. It
// starts delivery goroutines on demand, up to max, and each goroutine ends when it
// finds the queue empty, so an idle subscription owns no goroutine.
type readyQueue struct {
	mu      sync.Mutex
	items   []delivery
	head    int
	running int // delivery goroutines started and not ended
	active  int // deliveries popped and not yet finished
	max     int
	closed  bool
	start   func() // starts one delivery goroutine; called with mu held
}

func (q *readyQueue) lenLocked() int { return len(q.items) - q.head }

// Len is the number of deliveries waiting.
func (q *readyQueue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.lenLocked()
}

// push appends deliveries and starts goroutines for them. It reports false (and
// keeps nothing) once the queue is closed.
func (q *readyQueue) push(ds ...delivery) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return false
	}
	q.items = append(q.items, ds...)
	for q.running < q.max && q.running < q.lenLocked() {
		q.running++
		q.start()
	}
	return true
}

// pop removes the head delivery. When the queue is empty or closed it reports
// false and the calling goroutine must exit (its slot is released).
func (q *readyQueue) pop() (delivery, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed || q.lenLocked() == 0 {
		q.running--
		return delivery{}, false
	}
	q.active++
	return q.takeLocked(), true
}

// finish marks a popped delivery as handled.
func (q *readyQueue) finish() {
	q.mu.Lock()
	q.active--
	q.mu.Unlock()
}

// idle reports that nothing waits and nothing is being attempted.
func (q *readyQueue) idle() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.lenLocked() == 0 && q.active == 0
}

// popFresh removes the head delivery if it is a fresh single event that fits the
// batch budget; it never waits.
func (q *readyQueue) popFresh(fits func(*message) bool) (*message, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed || q.lenLocked() == 0 {
		return nil, false
	}
	d := &q.items[q.head]
	if d.attempts != 0 || len(d.rest) != 0 || !fits(d.first) {
		return nil, false
	}
	return q.takeLocked().first, true
}

func (q *readyQueue) takeLocked() delivery {
	d := q.items[q.head]
	q.items[q.head] = delivery{}
	q.head++
	if q.head == len(q.items) {
		// Empty: keep a small backing array, drop one a burst made large.
		if cap(q.items) > shrinkAbove {
			q.items = nil
		}
		q.items, q.head = q.items[:0], 0
	} else if q.head > 1024 && q.head*2 > len(q.items) {
		n := copy(q.items, q.items[q.head:])
		clear(q.items[n:])
		q.items, q.head = q.items[:n], 0
	}
	return d
}

// close stops the queue and returns what was still waiting.
func (q *readyQueue) close() []delivery {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	left := append([]delivery(nil), q.items[q.head:]...)
	q.items, q.head = nil, 0
	return left
}
