package mqttingest

import (
	"errors"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/eventschema"
)

// work is one worker: it settles queued messages until the queue is closed
// and empty, or Close abandons the rest.
func (in *Ingest) work() {
	defer in.workers.Done()
	for {
		it, ok := in.q.pop(in.abandon)
		if !ok {
			return
		}
		in.settle(it)
		in.resyncIfDrained()
	}
}

// resyncIfDrained resyncs once the queue is empty after a QoS 1 message was
// deferred. The workers call it after each message and the handler after
// deferring one; clearing the flag decides which of them resyncs.
func (in *Ingest) resyncIfDrained() {
	if in.q.len() == 0 && in.deferred.CompareAndSwap(true, false) && !in.closing.Load() {
		in.log.Warn().Msg("the ingest queue has drained after being full; reconnecting so the MQTT broker sends the unacknowledged messages again")
		in.resync()
	}
}

// outcome is what one offer of a message to one topic came to.
type outcome int

const (
	accepted outcome = iota
	refused          // for good: acknowledge
	busy             // try again later
	stopping         // the broker is shutting down: leave it to the MQTT broker
)

// settle offers the message to its pending topics until none is pending,
// backing off while the broker is busy. It acknowledges the message once
// every topic accepted or refused it; a message it gives up on (Close, or a
// broker shutting down) stays unacknowledged.
func (in *Ingest) settle(it *item) {
	delay := in.opts.RetryMin
	for {
		switch in.offer(it) {
		case accepted, refused:
			it.msg.Ack()
			return
		case stopping:
			in.leave(it)
			return
		}
		in.stats.busy.Add(1)
		if !in.sleep(delay) {
			in.leave(it)
			return
		}
		delay = min(2*delay, in.opts.RetryMax)
	}
}

// offer publishes the message to every pending topic once. It returns busy
// or stopping if some topic is still pending, else accepted (refusals are
// counted by publishTo).
func (in *Ingest) offer(it *item) outcome {
	result := accepted
	for i, r := range it.routes {
		if it.done[i] {
			continue
		}
		switch o := in.publishTo(it, i, r); o {
		case busy, stopping:
			result = max(result, o)
		default:
			it.done[i] = true
		}
	}
	return result
}

// publishTo offers the message to one topic.
func (in *Ingest) publishTo(it *item, i int, r *Route) outcome {
	body, shape := it.msg.Payload(), eventschema.ShapeAny
	if r.EventType != "" {
		if it.wrapped[i] == nil {
			tc, err := in.pub.Topic(r.Topic)
			if err != nil {
				return in.failed(it, r, err)
			}
			it.wrapped[i] = wrap(tc.Schema, rawMessage{ID: newID(), Subject: it.msg.Topic(), EventType: r.EventType,
				Source: in.opts.Source, Time: it.received, Payload: it.msg.Payload()})
		}
		body, shape = it.wrapped[i], eventschema.ShapeObject
	}
	if _, err := in.pub.PublishJSON(r.Topic, body, shape); err != nil {
		return in.failed(it, r, err)
	}
	in.stats.published.Add(1)
	return accepted
}

// failed classifies a publish error: busy and shutting down are transient,
// everything else is the message's fault and refuses it for good.
func (in *Ingest) failed(it *item, r *Route, err error) outcome {
	switch {
	case errors.Is(err, broker.ErrBusy):
		in.transient.Report("broker busy", "the broker is too busy to take MQTT messages; holding them unacknowledged and retrying",
			func(e *zerolog.Event) { e.Err(err) })
		return busy
	case errors.Is(err, broker.ErrShuttingDown):
		return stopping
	}
	in.stats.refused.Add(1)
	why := refusalCause(err)
	in.refusals.Report("topic "+r.Topic+": "+why, "MQTT message refused and dropped: "+why, func(e *zerolog.Event) {
		e.Str("mqttTopic", it.msg.Topic()).Str("topic", r.Topic).Int("qos", int(it.msg.Qos())).Err(err)
	})
	return refused
}

// refusalCause names the category of a refusal, for counting by cause.
func refusalCause(err error) string {
	switch {
	case errors.Is(err, broker.ErrTopicNotFound):
		return "the topic does not exist"
	case errors.Is(err, eventschema.ErrInvalidJSON):
		return "the payload is not valid JSON"
	case errors.Is(err, eventschema.ErrTooLarge):
		return "an event is larger than the maximum event size"
	case errors.Is(err, eventschema.ErrEmpty):
		return "the payload holds no event"
	case errors.Is(err, eventschema.ErrInvalidEvent):
		return "the payload is not a valid event in the topic's input schema"
	}
	return "the broker refused it"
}

// sleep waits d on the clock; it returns false when Close abandons work.
func (in *Ingest) sleep(d time.Duration) bool {
	fired := make(chan struct{})
	stop := in.opts.Clock.AfterFunc(d, func() { close(fired) })
	select {
	case <-fired:
		return true
	case <-in.abandon:
		stop()
		return false
	}
}

func equalFold(a, b string) bool { return strings.EqualFold(a, b) }
