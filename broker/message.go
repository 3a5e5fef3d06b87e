package broker

import (
	"sync/atomic"
	"time"

	"github.com/edgegrid/edgegrid/eventschema"
)

// message is one accepted event, shared by every subscription it matched.
type message struct {
	ev        *eventschema.Event
	published int64 // clock time of acceptance, Unix nanoseconds (8 bytes, not time.Time's 24: one per event)
	size      int64 // bytes accounted in memory
	refs      atomic.Int32
}

func (m *message) publishedAt() time.Time { return time.Unix(0, m.published) }

// done is called once per subscription that finished with m (delivered, dropped
// or lost); the last one releases the message's bytes.
func (b *Broker) done(m *message) {
	if m.refs.Add(-1) == 0 {
		b.mem.release(m.size)
		m.ev = nil // let the event's bytes go even if other messages of its request live on
	}
}

// delivery is a unit of work for a subscription: a fresh event, or a batch that
// is retried all or none.
type delivery struct {
	first *message
	rest  []*message
	// lastAttempt is when the last attempt was made, Unix nanoseconds (0: none yet).
	lastAttempt int64
	attempts    int32 // attempts made so far
	// deferred marks a fresh delivery that waited in the retry queue because the
	// subscription was in delayed delivery; it is attempted when due.
	deferred bool
}

func (d *delivery) lastAttemptAt() time.Time {
	if d.lastAttempt == 0 {
		return time.Time{}
	}
	return time.Unix(0, d.lastAttempt)
}

func (d *delivery) len() int { return 1 + len(d.rest) }

func (d *delivery) each(f func(*message)) {
	f(d.first)
	for _, m := range d.rest {
		f(m)
	}
}

// appendEvents appends the delivery's events to evs.
func (d *delivery) appendEvents(evs []*eventschema.Event) []*eventschema.Event {
	evs = append(evs, d.first.ev)
	for _, m := range d.rest {
		evs = append(evs, m.ev)
	}
	return evs
}
