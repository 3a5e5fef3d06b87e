package broker

import (
	"fmt"

	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/filter"
)

// PublishResult says what happened to a publish request's events.
type PublishResult struct {
	Accepted  int // events accepted
	Unmatched int // accepted events no subscription matched
}

// Publish accepts events for a topic, all or none, and queues each one for every
// subscription whose filter matches it. The events must have been parsed in the
// topic's input schema. It fails with ErrTopicNotFound, ErrShuttingDown, or
// ErrBusy when the buffered-bytes cap would be exceeded; then nothing is queued.
func (b *Broker) Publish(topicName string, events []*eventschema.Event) (PublishResult, error) {
	t, err := b.topic(topicName)
	if err != nil {
		return PublishResult{}, err
	}
	b.mu.RLock()
	closing := b.closing
	b.mu.RUnlock()
	if closing {
		return PublishResult{}, ErrShuttingDown
	}
	msgs := make([]message, len(events))
	var total int64
	now := b.clock.Now().UnixNano()
	for i, ev := range events {
		msgs[i] = message{ev: ev, published: now, size: int64(ev.Size()) + messageOverhead}
		total += msgs[i].size
	}
	if !b.mem.reserve(total) {
		return PublishResult{}, fmt.Errorf("%w: %d bytes buffered, %d more requested, limit %d",
			ErrBusy, b.mem.used.Load(), total, b.mem.limit)
	}
	unmatched := b.fanOut(t, msgs)
	t.stats.EventsReceived.Add(int64(len(events)))
	t.stats.UnmatchedEvents.Add(int64(unmatched))
	return PublishResult{Accepted: len(events), Unmatched: unmatched}, nil
}

// fanOut matches every message against every subscription, sets reference
// counts before anything is queued (so no subscription can release a message
// another still needs), releases unmatched messages and queues the rest.
func (b *Broker) fanOut(t *topic, msgs []message) int {
	subs := t.subscriptions()
	fevs := make([]filter.Event, len(msgs))
	for i := range msgs {
		ev := msgs[i].ev
		fevs[i] = filter.Event{Subject: ev.Subject, EventType: ev.Type, Raw: ev.Raw}
	}
	queued := make([][]delivery, len(subs))
	for si, s := range subs {
		f := s.state.Load().filter
		for i := range msgs {
			if f == nil || f.Match(&fevs[i]) {
				queued[si] = append(queued[si], delivery{first: &msgs[i]})
				msgs[i].refs.Add(1)
			}
		}
	}
	unmatched := 0
	for i := range msgs {
		if msgs[i].refs.Load() == 0 {
			unmatched++
			b.mem.release(msgs[i].size)
			msgs[i].ev = nil
		}
	}
	for si, s := range subs {
		if len(queued[si]) == 0 {
			continue
		}
		s.stats.Matched.Add(int64(len(queued[si])))
		if !s.q.push(queued[si]...) {
			for _, d := range queued[si] {
				s.lose(d)
			}
		}
	}
	return unmatched
}

// PublishJSON parses body in the topic's input schema and publishes it: the path
// non-HTTP ingest (MQTT, edgeHub inputs) shares with the REST API. Parse errors
// are *eventschema.ParseError; the rest are Publish's.
func (b *Broker) PublishJSON(topicName string, body []byte, shape eventschema.Shape) (PublishResult, error) {
	t, err := b.topic(topicName)
	if err != nil {
		return PublishResult{}, err
	}
	events, err := eventschema.Parse(t.schema, body, eventschema.Options{Topic: t.name, Shape: shape})
	if err != nil {
		t.stats.UserErrorRequests.Add(1)
		return PublishResult{}, err
	}
	res, err := b.Publish(t.name, events)
	if err == nil {
		t.stats.SuccessRequests.Add(1)
	}
	return res, err
}
