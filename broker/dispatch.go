package broker

import (
	"time"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/retry"
)

// worker is what one delivery goroutine reuses from attempt to attempt (the
// Sender contract forbids keeping the request after Send returns).
type worker struct {
	req    destination.Delivery
	events []*eventschema.Event
}

// run is one delivery goroutine: it attempts deliveries until the queue is empty.
func (s *subscription) run() {
	defer s.wg.Done()
	w := &worker{}
	for {
		d, ok := s.q.pop()
		if !ok {
			return
		}
		st := s.state.Load()
		if s.defer_(&d) {
			s.q.finish()
			continue
		}
		if d.attempts == 0 && d.len() == 1 && st.maxEvents > 1 {
			d = s.fillBatch(d, st)
		}
		s.attempt(d, st, w)
		s.q.finish()
	}
}

// later puts a copy of d in a retry queue: only deliveries that wait are
// allocated on the heap.
func (s *subscription) later(d *delivery, level retry.Level) {
	p := new(delivery)
	*p = *d
	if !s.sched.Add(p, level) {
		s.lose(*p)
	}
}

// fillBatch adds fresh events waiting behind d, without waiting for more, while
// the batch stays within maxEvents and maxBytes. A first event larger than
// maxBytes still goes, alone.
func (s *subscription) fillBatch(d delivery, st *subState) delivery {
	size := eventschema.BatchSize([]*eventschema.Event{d.first.ev})
	fits := func(m *message) bool {
		return d.len() < st.maxEvents && size+1+m.ev.Size() <= st.maxBytes
	}
	for d.len() < st.maxEvents {
		m, ok := s.q.popFresh(fits)
		if !ok {
			break
		}
		size += 1 + m.ev.Size()
		d.rest = append(d.rest, m)
	}
	return d
}

// attempt makes one delivery attempt, after dropping events whose time to live
// has passed (checked when the attempt is due, as the cloud service does).
func (s *subscription) attempt(d delivery, st *subState, w *worker) {
	now := s.b.clock.Now()
	d, ok := s.dropExpired(d, st, now)
	if !ok {
		return
	}
	if d.attempts == 0 {
		s.stats.FirstAttemptDelay.Observe(now.Sub(d.first.publishedAt()))
	}
	w.events = d.appendEvents(w.events[:0])
	w.req = destination.Delivery{Subscription: s.name, Topic: s.topic.name, Schema: st.cfg.DeliverySchema,
		Events: w.events, PriorAttempts: int(d.attempts)}
	res := st.sender.Send(s.ctx, &w.req)
	clear(w.events) // do not keep events alive through the reused buffer
	if res.Outcome != destination.Delivered && s.ctx.Err() != nil {
		// The subscription is closing: not an attempt; close() counts the loss.
		s.later(&d, retry.OneMinute)
		return
	}
	d.attempts++
	d.lastAttempt = now.UnixNano()
	s.stats.Attempts.Add(1)
	if len(res.Refused) > 0 {
		if d, ok = s.dropRefused(d, res.Refused); !ok {
			return
		}
	}
	s.outcome(d, st, res)
}

// dropRefused drops the events the destination refused for good
// (Result.Refused) and returns the others; ok is false when none is left.
func (s *subscription) dropRefused(d delivery, rs []destination.Refusal) (delivery, bool) {
	refused := make(map[int]destination.Refusal, len(rs))
	for _, r := range rs {
		refused[r.Index] = r
	}
	var keep []*message
	i := 0
	d.each(func(m *message) {
		if r, ok := refused[i]; ok {
			s.drop(m, &d, r.Reason, r.Detail)
		} else {
			keep = append(keep, m)
		}
		i++
	})
	if len(keep) == 0 {
		return d, false
	}
	d.first, d.rest = keep[0], keep[1:]
	return d, true
}

// dropExpired removes expired events from d; ok is false when none is left.
func (s *subscription) dropExpired(d delivery, st *subState, now time.Time) (delivery, bool) {
	if !st.policy.Expired(d.first.publishedAt(), now) && !anyExpired(d.rest, st, now) {
		return d, true
	}
	var keep []*message
	d.each(func(m *message) {
		if st.policy.Expired(m.publishedAt(), now) {
			s.drop(m, &d, string(retry.TimeToLiveExceeded), s.stats.lastOutcome())
			return
		}
		keep = append(keep, m)
	})
	if len(keep) == 0 {
		return d, false
	}
	d.first, d.rest = keep[0], keep[1:]
	return d, true
}

func anyExpired(ms []*message, st *subState, now time.Time) bool {
	for _, m := range ms {
		if st.policy.Expired(m.publishedAt(), now) {
			return true
		}
	}
	return false
}

// outcome acts on an attempt's result: done, drop, or back off.
func (s *subscription) outcome(d delivery, st *subState, res destination.Result) {
	s.stats.setLast(res)
	s.track(res)
	switch res.Outcome {
	case destination.Delivered:
		s.stats.Delivered.Add(int64(d.len()))
		s.stats.DeliveryLatency.Observe(res.Duration)
		if s.b.cfg.LogDeliverySuccess {
			s.b.log.Info().Str("topic", s.topic.name).Str("subscription", s.name).
				Int("events", d.len()).Int32("attempts", d.attempts).Msg("delivered")
		}
		d.each(s.b.done)
	case destination.Drop:
		d.each(func(m *message) { s.drop(m, &d, res.Reason, res.Reason) })
	default:
		level, stop := st.policy.AfterFailure(int(d.attempts))
		if stop != "" {
			d.each(func(m *message) { s.drop(m, &d, string(stop), res.Reason) })
			return
		}
		s.later(&d, level)
	}
}

// drop ends delivery of one event: logged once, counted by reason, and sent to
// the dead-letter destination when there is one.
func (s *subscription) drop(m *message, d *delivery, reason, last string) {
	s.stats.countDrop(reason)
	st := s.state.Load()
	ev := s.b.log.Warn().Str("topic", s.topic.name).Str("subscription", s.name).
		Str("eventId", m.ev.ID).Str("reason", reason).Int32("deliveryAttempts", d.attempts).
		Str("lastDeliveryOutcome", last)
	if st.sink != nil && !isDeadLetter(m.ev) {
		dl := eventschema.DeadLetter(m.ev, st.cfg.DeliverySchema, eventschema.DeadLetterInfo{Reason: reason,
			Attempts: int(d.attempts), LastOutcome: last, PublishTime: m.publishedAt(), LastAttemptTime: d.lastAttemptAt(), Topic: s.topic.name})
		if err := st.sink.send(dl); err != nil {
			ev = ev.AnErr("deadLetterError", err)
			s.stats.countDeadLetter(false)
		} else {
			ev = ev.Bool("deadLettered", true)
			s.stats.countDeadLetter(true)
		}
	}
	ev.Msg("event dropped")
	s.b.done(m)
}

// track updates the failure streak behind delayed delivery: after
// delayAfterFailures failed attempts in a row, fresh events wait in the
// 1-minute queue instead of being attempted at once, until an attempt succeeds.
func (s *subscription) track(res destination.Result) {
	if res.Outcome == destination.Delivered {
		s.failures.Store(0)
		if s.delayed.CompareAndSwap(true, false) {
			s.b.log.Info().Str("topic", s.topic.name).Str("subscription", s.name).Msg("delivery recovered; delayed delivery ends")
		}
		return
	}
	s.stats.FailedAttempts.Add(1)
	s.stats.FailureLatency.Observe(res.Duration)
	if s.failures.Add(1) >= delayAfterFailures && s.delayed.CompareAndSwap(false, true) {
		s.b.log.Warn().Str("topic", s.topic.name).Str("subscription", s.name).Str("lastDeliveryOutcome", res.String()).
			Msg("destination fails consistently; new events wait in the retry queue (delayed delivery)")
	}
}

// defer_ sends a fresh delivery to the 1-minute queue while the subscription is
// in delayed delivery; it reports whether it did.
func (s *subscription) defer_(d *delivery) bool {
	if d.attempts != 0 || d.deferred || !s.delayed.Load() {
		return false
	}
	d.deferred = true
	s.stats.Deferred.Add(int64(d.len()))
	s.later(d, retry.OneMinute)
	return true
}
