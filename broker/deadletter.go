package broker

import (
	"errors"
	"fmt"
	"strings"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/filter"
)

// DeadLetterDestination says where a subscription's dropped events go (an
// addition: cloud Event Grid dead-letters, the Edge module did not). Exactly
// one of Topic and Endpoint is set.
type DeadLetterDestination struct {
	// Topic is a local topic; its own subscriptions can forward or store the events.
	Topic string
	// Endpoint is a WebHook endpoint.
	Endpoint *destination.Endpoint
}

// ErrInvalidDeadLetter: the dead-letter destination cannot be used.
var ErrInvalidDeadLetter = errors.New("broker: invalid dead-letter destination")

// deadLetterSink receives the dead-lettered form of dropped events.
type deadLetterSink interface {
	// send hands over one dead-letter event; an error means it is lost.
	send(ev *eventschema.Event) error
	// close releases the sink; it returns how many events it lost.
	close() int
	// idle reports whether the sink has nothing queued or in flight.
	idle() bool
	// flush gives queued retries a last attempt (shutdown).
	flush()
}

// deadLetterSchema is the schema of dead-letter events of a subscription: the
// cloud wraps custom events into an Event Grid envelope.
func deadLetterSchema(s eventschema.Schema) eventschema.Schema {
	if s == eventschema.CloudEvents {
		return s
	}
	return eventschema.EventGrid
}

// validateDeadLetter checks st's dead-letter destination. A topic destination
// gets its sink at once; a WebHook gets its sender, and install makes the sink
// (or keeps the running one when the destination did not change).
func (b *Broker) validateDeadLetter(st *subState) error {
	sink, sender, err := b.checkDeadLetter(&st.cfg)
	st.sink, st.dlSender = sink, sender
	return err
}

func (b *Broker) checkDeadLetter(cfg *SubscriptionConfig) (deadLetterSink, destination.Sender, error) {
	dl := cfg.DeadLetter
	if dl == nil {
		return nil, nil, nil
	}
	if dl.Topic != "" {
		t, err := b.topic(dl.Topic)
		if err != nil {
			return nil, nil, wrap(ErrInvalidDeadLetter, fmt.Errorf("dead-letter topic '%s' does not exist", dl.Topic))
		}
		if key(t.name) == key(cfg.Topic) {
			return nil, nil, wrap(ErrInvalidDeadLetter, errors.New("the dead-letter topic must differ from the subscription's own topic"))
		}
		if want := deadLetterSchema(cfg.DeliverySchema); t.schema != want && t.schema != eventschema.Custom {
			return nil, nil, wrap(ErrInvalidDeadLetter, fmt.Errorf("dead-letter topic '%s' has input schema %s; dead-lettered events of this subscription are %s (or use a CustomEventSchema topic)", t.name, t.schema, want))
		}
		return &topicSink{b: b, topic: t.name}, nil, nil
	}
	if dl.Endpoint == nil || dl.Endpoint.Type != destination.WebHook {
		return nil, nil, wrap(ErrInvalidDeadLetter, errors.New("the dead-letter destination must be a local topic or a WebHook"))
	}
	sender, err := b.newSender(dl.Endpoint)
	if err != nil {
		return nil, nil, wrap(ErrInvalidDeadLetter, err)
	}
	return nil, sender, nil
}

// attachSink gives st a running WebHook sink: the previous state's when its
// destination is unchanged (its queued dead letters carry on), else a new one.
// It returns the sink the caller must close, if any.
func (b *Broker) attachSink(st, old *subState) deadLetterSink {
	if st.dlSender == nil {
		if old != nil {
			return old.sink
		}
		return nil
	}
	if old != nil && old.sink != nil && old.dlSender != nil && sameDeadLetter(old.cfg.DeadLetter, st.cfg.DeadLetter) {
		_ = st.dlSender.Close()
		st.sink, st.dlSender = old.sink, old.dlSender
		return nil
	}
	st.sink = b.newWebhookSink(&st.cfg, st.dlSender)
	if old != nil {
		return old.sink
	}
	return nil
}

func sameDeadLetter(a, b *DeadLetterDestination) bool {
	return a != nil && b != nil && a.Topic == b.Topic && a.Endpoint != nil && b.Endpoint != nil &&
		a.Endpoint.URL == b.Endpoint.URL && len(a.Endpoint.Headers) == 0 && len(b.Endpoint.Headers) == 0
}

// isDeadLetter reports whether an event is already a dead-letter event; such
// events are never dead-lettered again, so chains of topics cannot loop.
func isDeadLetter(ev *eventschema.Event) bool {
	if _, ok := filter.Lookup(ev.Raw, "deadLetterReason"); ok {
		return true
	}
	return strings.Contains(string(ev.Raw), `"deadletterreason"`)
}

// topicSink publishes dead-letter events to a local topic, bypassing input
// validation (the events keep their original topic and gain the dead-letter
// properties).
type topicSink struct {
	b     *Broker
	topic string
}

func (t *topicSink) send(ev *eventschema.Event) error {
	_, err := t.b.Publish(t.topic, []*eventschema.Event{ev})
	return err
}

func (t *topicSink) close() int { return 0 }
func (t *topicSink) idle() bool { return true }
func (t *topicSink) flush()     {}

// webhookSink delivers dead-letter events to a WebHook through an internal
// subscription with the broker's default retry policy and no dead-lettering of
// its own.
type webhookSink struct{ sub *subscription }

func (b *Broker) newWebhookSink(cfg *SubscriptionConfig, sender destination.Sender) *webhookSink {
	t := &topic{name: cfg.Topic, schema: deadLetterSchema(cfg.DeliverySchema)}
	st := &subState{cfg: SubscriptionConfig{Name: cfg.Name + "-deadletter", Topic: cfg.Topic, DeliverySchema: t.schema,
		Destination: *cfg.DeadLetter.Endpoint}, sender: sender, policy: b.policyFor(nil), maxEvents: 1}
	return &webhookSink{sub: b.newSubscription(t, st)}
}

func (w *webhookSink) send(ev *eventschema.Event) error {
	m := &message{ev: ev, published: w.sub.b.clock.Now().UnixNano(), size: int64(ev.Size()) + messageOverhead}
	if !w.sub.b.mem.reserve(m.size) {
		return ErrBusy
	}
	m.refs.Store(1)
	if !w.sub.q.push(delivery{first: m}) {
		w.sub.b.done(m)
		return ErrShuttingDown
	}
	return nil
}

func (w *webhookSink) close() int { return w.sub.close() }
func (w *webhookSink) idle() bool { return w.sub.q.idle() }
func (w *webhookSink) flush()     { w.sub.flushRetries() }
