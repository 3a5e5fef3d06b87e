package eventgrid_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/destination/eventgrid"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

// TestBatchWithOversizeEvent: through the broker, a batch holding one event
// that the topicName rewrite makes too large for the cloud: that event is
// dropped as PayloadTooLarge, the others of the batch are delivered.
func TestBatchWithOversizeEvent(t *testing.T) {
	r := newRig(t, testenv.CloudOptions{Key: "K"}, eventgrid.Options{})
	b := newBroker(t, broker.Config{DeliveryConcurrency: 1}, r.f)
	cloudTopic := "a-domain-topic-name-longer-than-the-local-one"
	subscribe(t, b, "cloud", destination.Endpoint{Type: destination.EventGrid, URL: r.cloud.URL, SASKey: "K", TopicName: &cloudTopic},
		func(c *broker.SubscriptionConfig) { c.MaxEventsPerBatch = ptr(10) })
	r.cloud.Hang() // hold the first delivery so the rest queue up and are batched
	publish(t, b, smallEvent("first"))
	testenv.Eventually(t, 5*time.Second, "the first request", func() bool { return r.cloud.Held() == 1 })
	huge := nearLimitEvent(t)
	publish(t, b, huge+","+smallEvent("a")+","+smallEvent("b"))
	r.cloud.Unhang()
	testenv.Eventually(t, 5*time.Second, "the batch", func() bool { return len(r.cloud.Requests()) == 2 })
	var stats *broker.SubscriptionStats
	testenv.Eventually(t, 5*time.Second, "the outcome", func() bool {
		_, subs := b.Statuses()
		stats = subs[0].Stats
		return stats.Delivered.Load() == 3
	})
	if d := stats.Dropped(); d["PayloadTooLarge"] != 1 || len(d) != 1 {
		t.Fatalf("dropped %v", d)
	}
	if got := len(r.cloud.Events()); got != 3 {
		t.Fatalf("cloud got %d events", got)
	}
}

func smallEvent(id string) string {
	return fmt.Sprintf(`{"id":"%s","subject":"s","eventType":"t","eventTime":"2026-01-01T00:00:00Z","dataVersion":"1"}`, id)
}

// nearLimitEvent is an event accepted locally (1 MB at most) whose
// forwarded form, with the longer topic, exceeds the cloud's limit.
func nearLimitEvent(t *testing.T) string {
	t.Helper()
	build := func(pad int) (string, int) {
		ev := fmt.Sprintf(`{"id":"huge","subject":"s","eventType":"t","eventTime":"2026-01-01T00:00:00Z","dataVersion":"1","data":"%s"}`, strings.Repeat("x", pad))
		return ev, parse(t, eventschema.EventGrid, "["+ev+"]")[0].Size()
	}
	_, n := build(1000)
	ev, n := build(1000 + eventgrid.MaxRequestBytes - 10 - n)
	if n > eventschema.DefaultMaxEventSize || n+2+len(`"a-domain-topic-name-longer-than-the-local-one"`)-len(`"t1"`) <= eventgrid.MaxRequestBytes {
		t.Fatalf("event of %d bytes does not straddle the limits", n)
	}
	return ev
}

func publish(t *testing.T, b *broker.Broker, list string) {
	t.Helper()
	evs, err := eventschema.Parse(eventschema.EventGrid, []byte("["+list+"]"), eventschema.Options{Topic: "t1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Publish("t1", evs); err != nil {
		t.Fatal(err)
	}
}
