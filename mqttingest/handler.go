package mqttingest

import (
	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/mqtttopic"
)

// onMessage is paho's handler for every inbound message. It never blocks:
// it settles what can be settled at once and queues the rest for the
// workers. paho gives every message its own payload slice, so the item can
// keep it without copying.
func (in *Ingest) onMessage(_ paho.Client, m paho.Message) {
	in.stats.received.Add(1)
	if in.closing.Load() {
		return // not acknowledged: the MQTT broker sends it again next time
	}
	if m.Retained() {
		in.stats.retained.Add(1)
		m.Ack()
		return
	}
	if n := len(m.Payload()); n > in.opts.MaxMessageSize {
		in.refuse(m, "", "larger than the maximum message size", func(e *zerolog.Event) {
			e.Int("size", n).Int("maxMessageSize", in.opts.MaxMessageSize)
		})
		return
	}
	routes := in.match(m.Topic())
	if len(routes) == 0 {
		in.refuse(m, "", "no route matches the MQTT topic (a subscription left from earlier routes?)", nil)
		return
	}
	it := &item{msg: m, routes: routes, done: make([]bool, len(routes)), wrapped: make([][]byte, len(routes)),
		received: in.opts.Clock.Now()}
	if in.q.push(it) || in.closing.Load() {
		return // queued, or Close has begun: left unacknowledged to the MQTT broker
	}
	in.queueFull(it)
}

// match returns the routes whose filter matches topic, one per distinct
// Event Grid topic, in route order.
func (in *Ingest) match(topic string) []*Route {
	var out []*Route
	for i := range in.opts.Routes {
		r := &in.opts.Routes[i]
		if !mqtttopic.Match(r.Filter, topic) || hasTopic(out, r.Topic) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// hasTopic reports whether rs already targets topic. Topic names are
// case-insensitive, as in the broker.
func hasTopic(rs []*Route, topic string) bool {
	for _, r := range rs {
		if equalFold(r.Topic, topic) {
			return true
		}
	}
	return false
}

// queueFull handles a message the queue cannot take: a QoS 0 message is
// lost; a QoS 1 message stays unacknowledged, and the workers resync once
// the queue has drained so that the MQTT broker sends it again.
func (in *Ingest) queueFull(it *item) {
	m := it.msg
	if m.Qos() == 0 {
		in.stats.dropped.Add(1)
		in.refusals.Report("ingest queue full: QoS 0 message dropped", "MQTT message dropped: the ingest queue is full and QoS 0 messages cannot be redelivered",
			func(e *zerolog.Event) { e.Str("mqttTopic", m.Topic()) })
		return
	}
	in.stats.deferred.Add(1)
	in.deferred.Store(true)
	in.transient.Report("ingest queue full: QoS 1 message deferred", "MQTT message left unacknowledged: the ingest queue is full; it will be received again after a reconnect",
		func(e *zerolog.Event) { e.Str("mqttTopic", m.Topic()) })
	// The workers may have drained the queue between the failed push and
	// the flag: then none of them will look at it again, and the MQTT broker
	// would keep the message until some later reconnect. Whoever clears the
	// flag resyncs, so exactly one of us does.
	in.resyncIfDrained()
}

// refuse acknowledges and drops a message for good, counting it by cause.
// topic is the Event Grid topic concerned, "" when none. Acknowledging on
// the router goroutine is what paho's own auto-ack does after every
// handler; the PUBACK only waits for paho's writer, never for the broker.
func (in *Ingest) refuse(m paho.Message, topic, why string, detail func(*zerolog.Event)) {
	in.stats.refused.Add(1)
	cause := why
	if topic != "" {
		cause = "topic " + topic + ": " + why
	}
	in.refusals.Report(cause, "MQTT message refused and dropped: "+why, func(e *zerolog.Event) {
		e.Str("mqttTopic", m.Topic()).Int("qos", int(m.Qos()))
		if topic != "" {
			e.Str("topic", topic)
		}
		if detail != nil {
			detail(e)
		}
	})
	m.Ack()
}
