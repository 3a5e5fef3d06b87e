package retry

// shrinkAbove is the capacity above which an emptied queue releases its array.
const shrinkAbove = 4096

// fifo is a first-in first-out queue of items with their due offsets. Popped slots
// are zeroed so the garbage collector can reclaim items; the backing array is
// compacted when more than half of it is dead.
type fifo[T any] struct {
	entries []entry[T]
	head    int
}

type entry[T any] struct {
	item T
	due  int64 // nanoseconds since the scheduler's epoch
}

func (q *fifo[T]) len() int { return len(q.entries) - q.head }

func (q *fifo[T]) push(item T, due int64) {
	if q.head > 0 && q.head >= len(q.entries)/2 && len(q.entries) == cap(q.entries) {
		n := copy(q.entries, q.entries[q.head:])
		clear(q.entries[n:])
		q.entries = q.entries[:n]
		q.head = 0
	}
	q.entries = append(q.entries, entry[T]{item: item, due: due})
}

// peekDue returns the head's due offset; ok is false when the queue is empty.
func (q *fifo[T]) peekDue() (int64, bool) {
	if q.head == len(q.entries) {
		return 0, false
	}
	return q.entries[q.head].due, true
}

func (q *fifo[T]) pop() T {
	var zero T
	it := q.entries[q.head].item
	q.entries[q.head].item = zero
	q.head++
	if q.head == len(q.entries) {
		if cap(q.entries) > shrinkAbove {
			q.entries = nil // a burst emptied: do not pin its backing array
		}
		q.entries = q.entries[:0]
		q.head = 0
	}
	return it
}

// drain removes and returns every item.
func (q *fifo[T]) drain() []T {
	out := make([]T, 0, q.len())
	for q.len() > 0 {
		out = append(out, q.pop())
	}
	return out
}
