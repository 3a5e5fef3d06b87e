package mqttingest

import (
	"sync"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// item is one MQTT message on its way to the broker.
type item struct {
	msg      paho.Message
	routes   []*Route  // the distinct target topics, in route order
	done     []bool    // done[i]: routes[i] accepted or refused it for good
	wrapped  [][]byte  // raw events, built once per target so a retry resends the same event
	received time.Time // when it arrived (raw events' time)
}

// size is what the item counts against the queue's byte cap.
func (it *item) size() int64 { return int64(len(it.msg.Payload())) }

// queue is a FIFO bounded by message count and payload bytes. push never
// blocks: it answers false when the item does not fit. pop blocks until an
// item is available, the queue is closed and empty, or abandon is closed.
type queue struct {
	mu       sync.Mutex
	items    []*item
	bytes    int64
	maxItems int
	maxBytes int64
	closed   bool
	wake     chan struct{} // one slot: "an item was pushed"
	done     chan struct{} // closed by close
}

func newQueue(maxItems int, maxBytes int64) *queue {
	return &queue{maxItems: maxItems, maxBytes: maxBytes, wake: make(chan struct{}, 1), done: make(chan struct{})}
}

// push appends it unless the queue is closed or full. One item larger than
// maxBytes still fits into an empty queue, so no message is refused for its
// size alone (the size limit is MaxMessageSize's job).
func (q *queue) push(it *item) bool {
	q.mu.Lock()
	full := len(q.items) >= q.maxItems || (len(q.items) > 0 && q.bytes+it.size() > q.maxBytes)
	if q.closed || full {
		q.mu.Unlock()
		return false
	}
	q.items = append(q.items, it)
	q.bytes += it.size()
	q.mu.Unlock()
	q.signal()
	return true
}

func (q *queue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// pop takes the oldest item. ok is false once the queue is closed and
// empty, or as soon as abandon is closed.
func (q *queue) pop(abandon <-chan struct{}) (it *item, ok bool) {
	for {
		select {
		case <-abandon:
			return nil, false
		default:
		}
		q.mu.Lock()
		if len(q.items) > 0 {
			it = q.items[0]
			q.items[0] = nil
			q.items = q.items[1:]
			q.bytes -= it.size()
			more := len(q.items) > 0
			q.mu.Unlock()
			if more {
				q.signal() // another worker may take the next one
			}
			return it, true
		}
		closed := q.closed
		q.mu.Unlock()
		if closed {
			return nil, false
		}
		select {
		case <-q.wake:
		case <-q.done:
		case <-abandon:
			return nil, false
		}
	}
}

// close refuses further pushes; pop drains what is left, then reports false.
func (q *queue) close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.closed {
		q.closed = true
		close(q.done)
	}
}

// drain removes and returns everything still queued.
func (q *queue) drain() []*item {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := q.items
	q.items, q.bytes = nil, 0
	return out
}

// len is the number of queued items.
func (q *queue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items)
}
