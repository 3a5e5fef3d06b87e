package mqttingest

import (
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/eventschema"
)

// Route maps an MQTT topic filter to an Event Grid topic.
type Route struct {
	// Filter is the MQTT topic filter subscribed to (wildcards allowed).
	Filter string
	// Topic is the Event Grid topic its messages are published to.
	Topic string
	// EventType, when set, makes the route raw: each payload is wrapped into
	// one event of this type (see the package documentation).
	EventType string
}

// Publisher is where messages go: *broker.Broker. PublishJSON and Topic must
// be safe for concurrent use and must not block on I/O.
type Publisher interface {
	PublishJSON(topic string, body []byte, shape eventschema.Shape) (broker.PublishResult, error)
	Topic(name string) (broker.TopicConfig, error)
}

var _ Publisher = (*broker.Broker)(nil)

// Clock is the time source for back-off, summaries and event times.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine after d unless stop is called
	// first.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// Defaults, each with the reason for its value.
const (
	// DefaultWorkers: publishing is CPU-bound and fast; two workers keep a
	// small gateway's two cores busy without reordering much.
	DefaultWorkers = 2
	// DefaultQueueMessages absorbs bursts. The MQTT broker's in-flight
	// window does not bound them: mosquitto 2.0 (max_inflight_messages 20)
	// was measured holding 220 unacknowledged messages on this ingest at
	// 5,000 msg/s, and over 1,000 in a 20,000-message burst on two busy
	// cores, which a 1,000-message queue turned into resyncs. Memory stays
	// bounded by DefaultQueueBytes.
	DefaultQueueMessages = 10000
	// DefaultQueueBytes bounds the payload bytes held in the queue.
	DefaultQueueBytes = 64 << 20
	// DefaultRetryMin and DefaultRetryMax bound the back-off between offers
	// of a message the broker was too busy to take.
	DefaultRetryMin = 100 * time.Millisecond
	DefaultRetryMax = 5 * time.Second
	// DefaultSummaryInterval is how often repeated refusals are summarised.
	DefaultSummaryInterval = time.Minute
	// DefaultReconnectMax caps the reconnect back-off, so that ingest
	// resumes within half a minute of the MQTT broker's return.
	DefaultReconnectMax = 30 * time.Second
	// connectRetryInterval spaces the attempts of the first connection.
	connectRetryInterval = 2 * time.Second
	// subscribeTimeout bounds the wait for a SUBACK.
	subscribeTimeout = 30 * time.Second
	// disconnectQuiesce lets acknowledgements go out before DISCONNECT.
	disconnectQuiesce = 250 // milliseconds, as paho takes it
)
