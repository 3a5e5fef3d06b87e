package broker_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/destination/webhook"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

// harness is a broker with a manual clock and real webhook delivery.
type harness struct {
	t     *testing.T
	b     *broker.Broker
	clock *testenv.ManualClock
}

func newHarness(t *testing.T, cfg broker.Config) *harness {
	t.Helper()
	clock := testenv.NewManualClock()
	f := webhook.NewFactory(webhook.Options{AllowUnknownCA: true, Timeout: 5 * time.Second})
	t.Cleanup(f.CloseIdle)
	b, err := broker.New(cfg, broker.WithClock(clock), broker.WithFactory(destination.WebHook, f))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := contextWithTimeout(time.Second)
		defer cancel()
		b.Shutdown(ctx)
	})
	return &harness{t: t, b: b, clock: clock}
}

func (h *harness) topic(name string, s eventschema.Schema) {
	h.t.Helper()
	if _, _, err := h.b.PutTopic(broker.TopicConfig{Name: name, Schema: s}); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) subscribe(topic, name, url string, mods ...func(*broker.SubscriptionConfig)) {
	h.t.Helper()
	tc, err := h.b.Topic(topic)
	if err != nil {
		h.t.Fatal(err)
	}
	cfg := broker.SubscriptionConfig{Name: name, Topic: topic, DeliverySchema: tc.Schema,
		Destination: destination.Endpoint{Type: destination.WebHook, URL: url}}
	for _, m := range mods {
		m(&cfg)
	}
	if _, _, err := h.b.PutSubscription(cfg); err != nil {
		h.t.Fatal(err)
	}
}

// events builds n Event Grid events with ids prefix-0..n-1 and the given data.
func events(t testing.TB, topic, prefix string, n int, data string) []*eventschema.Event {
	t.Helper()
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"%s-%d","subject":"sub/%d","eventType":"type%d","eventTime":"2026-01-01T00:00:00Z","dataVersion":"1.0","data":%s}`, prefix, i, i, i%3, data)
	}
	b.WriteByte(']')
	evs, err := eventschema.Parse(eventschema.EventGrid, []byte(b.String()), eventschema.Options{Topic: topic})
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func (h *harness) publish(topic string, evs []*eventschema.Event) {
	h.t.Helper()
	if _, err := h.b.Publish(topic, evs); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) status(topic, sub string) broker.SubscriptionStatus {
	h.t.Helper()
	st, err := h.b.SubscriptionStatus(topic, sub)
	if err != nil {
		h.t.Fatal(err)
	}
	return st
}

// waitRetrying waits until n deliveries sit in the 1-minute (level 1) or
// 10-minute (level 10) queue, so the clock can be moved safely.
func (h *harness) waitRetrying(topic, sub string, level, n int) {
	h.t.Helper()
	testenv.Eventually(h.t, 2*time.Second, fmt.Sprintf("%d deliveries in the %d-minute queue", n, level), func() bool {
		st := h.status(topic, sub)
		if level == 1 {
			return st.OneMinute == n
		}
		return st.TenMinutes == n
	})
}

func (h *harness) waitDropped(topic, sub, reason string, n int64) {
	h.t.Helper()
	testenv.Eventually(h.t, 2*time.Second, "drop of "+reason, func() bool {
		return h.status(topic, sub).Stats.Dropped()[reason] == n
	})
}

func ptr[T any](v T) *T { return &v }
