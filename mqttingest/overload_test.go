package mqttingest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
	"github.com/edgegrid/edgegrid/mqttingest"
)

// bigEvent is an Event Grid event of about 200 KB: five fill the broker's
// smallest memory cap (1 MiB).
func bigEvent(id string) []byte {
	return fmt.Appendf(nil, `{"id":%q,"subject":"s","eventType":"t","eventTime":"2026-01-01T00:00:00Z","dataVersion":"1","data":%q}`,
		id, strings.Repeat("x", 200<<10))
}

// ids returns the distinct event ids received and how many arrived twice.
func ids(evs []map[string]any) (map[string]bool, int) {
	seen := map[string]bool{}
	dups := 0
	for _, ev := range evs {
		id, _ := ev["id"].(string)
		if seen[id] {
			dups++
		}
		seen[id] = true
	}
	return seen, dups
}

// TestOverloadNotAckedUntilAccepted: while the broker is full (ErrBusy) the
// message stays unacknowledged and is offered again with back-off; once the
// subscriber frees memory it is accepted, acknowledged and delivered.
func TestOverloadNotAckedUntilAccepted(t *testing.T) {
	e := newEnv(t, broker.Config{MaxBufferedBytes: 1 << 20, DeliveryConcurrency: 1})
	hook := e.topic("telemetry", eventschema.EventGrid)
	hook.Hang()
	e.start(mqttingest.Route{Filter: "t/#", Topic: "telemetry"})
	const n = 8
	for i := range n {
		e.mq.Publish("t/x", bigEvent(fmt.Sprint("e", i)), 1, false)
	}
	testenv.Eventually(t, 10*time.Second, "broker busy", func() bool { return e.in.Stats().Busy > 0 })
	if got := e.mq.Inflight(clientID); got == 0 {
		t.Fatalf("nothing left unacknowledged while the broker is busy")
	}
	e.clock.Advance(time.Minute) // retries: still busy, still unacknowledged
	if got := e.mq.Inflight(clientID); got == 0 || e.in.Stats().Published == n {
		t.Fatalf("inflight %d, published %d while the broker is still busy", got, e.in.Stats().Published)
	}
	hook.Unhang()
	testenv.Eventually(t, 10*time.Second, "every message accepted", func() bool {
		e.clock.Advance(mqttingest.DefaultRetryMax)
		return e.in.Stats().Published == n
	})
	e.acked()
	got, dups := ids(waitEvents(t, hook, n))
	if len(got) != n || dups != 0 {
		t.Errorf("delivered %d distinct events (%d duplicates), want %d", len(got), dups, n)
	}
	if s := e.in.Stats(); s.Refused != 0 || s.Deferred != 0 {
		t.Errorf("stats %+v", s)
	}
}

// TestQueueFullDefersAndResyncs: when the queue is full a QoS 1 message is
// left unacknowledged; once the queue drains the ingest reconnects and the
// MQTT broker sends it again, so nothing is lost.
func TestQueueFullDefersAndResyncs(t *testing.T) {
	e := newEnv(t, broker.Config{MaxBufferedBytes: 1 << 20, DeliveryConcurrency: 1})
	e.opts.Workers, e.opts.QueueMessages = 1, 2
	hook := e.topic("telemetry", eventschema.EventGrid)
	hook.Hang()
	e.start(mqttingest.Route{Filter: "t/#", Topic: "telemetry"})
	const n = 12
	for i := range n {
		e.mq.Publish("t/x", bigEvent(fmt.Sprint("e", i)), 1, false)
	}
	testenv.Eventually(t, 10*time.Second, "messages deferred", func() bool { return e.in.Stats().Deferred > 0 })
	hook.Unhang()
	testenv.Eventually(t, 20*time.Second, "every event delivered", func() bool {
		e.clock.Advance(mqttingest.DefaultRetryMax)
		got, _ := ids(events(t, hook))
		return len(got) == n
	})
	e.acked()
	s := e.in.Stats()
	if s.Resyncs == 0 {
		t.Errorf("no resync after deferring %d messages", s.Deferred)
	}
	_, dups := ids(events(t, hook))
	t.Logf("deferred %d, resyncs %d, duplicates %d", s.Deferred, s.Resyncs, dups)
}

// TestQoS0DroppedWhenQueueFull: QoS 0 messages cannot be redelivered; when
// the queue is full they are counted as dropped.
func TestQoS0DroppedWhenQueueFull(t *testing.T) {
	e := newEnv(t, broker.Config{MaxBufferedBytes: 1 << 20, DeliveryConcurrency: 1})
	e.opts.Workers, e.opts.QueueMessages = 1, 1
	hook := e.topic("telemetry", eventschema.EventGrid)
	hook.Hang()
	e.start(mqttingest.Route{Filter: "t/#", Topic: "telemetry"})
	for i := range 10 {
		e.mq.Publish("t/x", bigEvent(fmt.Sprint("e", i)), 0, false)
	}
	testenv.Eventually(t, 10*time.Second, "QoS 0 messages dropped", func() bool { return e.in.Stats().Dropped > 0 })
	if c := e.in.Stats().Refusals["ingest queue full: QoS 0 message dropped"]; c == 0 {
		t.Errorf("drops not counted by cause: %v", e.in.Stats().Refusals)
	}
	hook.Unhang()
}

// TestCloseLeavesBusyMessagesToTheMQTTBroker: a message the broker is too
// busy to take when the ingest stops stays unacknowledged; the next ingest
// with the same client id receives it again and delivers it.
func TestCloseLeavesBusyMessagesToTheMQTTBroker(t *testing.T) {
	e := newEnv(t, broker.Config{MaxBufferedBytes: 1 << 20, DeliveryConcurrency: 1})
	hook := e.topic("telemetry", eventschema.EventGrid)
	hook.Hang()
	first := e.start(mqttingest.Route{Filter: "t/#", Topic: "telemetry"})
	const n = 8
	for i := range n {
		e.mq.Publish("t/x", bigEvent(fmt.Sprint("e", i)), 1, false)
	}
	testenv.Eventually(t, 10*time.Second, "broker busy", func() bool { return first.Stats().Busy > 0 })
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if err := first.Close(ctx); err == nil {
		t.Error("Close reported no error although it abandoned busy messages")
	}
	if s := first.Stats(); s.Abandoned == 0 || s.Connected {
		t.Errorf("after Close: %+v", s)
	}
	left := e.mq.Inflight(clientID)
	if left == 0 {
		t.Fatal("the MQTT broker holds no unacknowledged message after Close")
	}
	hook.Unhang()
	e.start(mqttingest.Route{Filter: "t/#", Topic: "telemetry"})
	testenv.Eventually(t, 10*time.Second, "every event delivered", func() bool {
		e.clock.Advance(mqttingest.DefaultRetryMax)
		got, _ := ids(events(t, hook))
		return len(got) == n
	})
	e.acked()
	t.Logf("%d messages left to the MQTT broker at Close", left)
}
