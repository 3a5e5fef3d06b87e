package mqttingest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
	"github.com/edgegrid/edgegrid/mqttingest"
)

// TestBadPayloadsAckedAndCounted: messages no topic can take are
// acknowledged (so the MQTT broker does not send them forever), counted by
// cause and logged once per cause, and good messages still get through.
func TestBadPayloadsAckedAndCounted(t *testing.T) {
	e := newEnv(t, broker.Config{})
	e.opts.MaxMessageSize = 2048
	tele := e.topic("telemetry", eventschema.EventGrid)
	e.start(mqttingest.Route{Filter: "t/#", Topic: "telemetry"}, mqttingest.Route{Filter: "gone/#", Topic: "missing"})
	const n = 50
	for range n {
		e.mq.Publish("t/a", []byte("not json"), 1, false)
		e.mq.Publish("t/b", []byte(`[{"id":"x"}]`), 1, false) // misses required properties
		e.mq.Publish("gone/x", []byte(egEvent("g")), 1, false)
		e.mq.Publish("t/big", []byte(`"`+strings.Repeat("x", 3000)+`"`), 1, false)
	}
	e.mq.Publish("t/good", []byte(egEvent("ok")), 1, false)
	if got := waitEvents(t, tele, 1); got[0]["id"] != "ok" {
		t.Errorf("good event: %v", got)
	}
	testenv.Eventually(t, 10*time.Second, "all refused", func() bool { return e.in.Stats().Refused == 4*n })
	e.acked()
	want := map[string]int64{
		"topic telemetry: the payload is not valid JSON":                                n,
		"topic telemetry: the payload is not a valid event in the topic's input schema": n,
		"topic missing: the topic does not exist":                                       n,
		"larger than the maximum message size":                                          n,
	}
	got := e.in.Stats().Refusals
	for cause, c := range want {
		if got[cause] != c {
			t.Errorf("refusals[%q] = %d, want %d (all: %v)", cause, got[cause], c, got)
		}
		if lines := e.logs.count(`"cause":"`+cause+`"`, "refused and dropped"); lines != 1 {
			t.Errorf("cause %q logged %d times, want once:\n%s", cause, lines, e.logs)
		}
	}
	if len(events(t, tele)) != 1 {
		t.Errorf("webhook got %d events, want only the good one", len(events(t, tele)))
	}
	// The next period summarises the repeats in one line per cause.
	e.clock.Advance(mqttingest.DefaultSummaryInterval)
	if lines := e.logs.count(`"count":49`, "repeated"); lines != 4 {
		t.Errorf("%d summary lines, want 4:\n%s", lines, e.logs)
	}
}

// TestStaleSubscriptionAcked: a persistent session keeps subscriptions of
// earlier routes; their messages match no route now and are acknowledged.
func TestStaleSubscriptionAcked(t *testing.T) {
	e := newEnv(t, broker.Config{})
	tele := e.topic("telemetry", eventschema.EventGrid)
	old := e.start(mqttingest.Route{Filter: "t/#", Topic: "telemetry"}, mqttingest.Route{Filter: "old/#", Topic: "telemetry"})
	if err := old.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	e.start(mqttingest.Route{Filter: "t/#", Topic: "telemetry"})
	if !e.mq.Subscribed(clientID, "old/#") {
		t.Fatal("the session lost its old subscription; the test needs it")
	}
	e.mq.Publish("old/x", []byte(egEvent("stale")), 1, false)
	e.mq.Publish("t/x", []byte(egEvent("fresh")), 1, false)
	waitEvents(t, tele, 1)
	testenv.Eventually(t, 5*time.Second, "stale message refused", func() bool { return e.in.Stats().Refused == 1 })
	e.acked()
	if got := events(t, tele); len(got) != 1 || got[0]["id"] != "fresh" {
		t.Errorf("events %v", got)
	}
}

// TestRetainedSkipped: retained messages replayed on subscribe are not
// events; live messages are.
func TestRetainedSkipped(t *testing.T) {
	e := newEnv(t, broker.Config{})
	tele := e.topic("telemetry", eventschema.EventGrid)
	e.mq.Publish("t/state", []byte(egEvent("retained")), 1, true)
	e.start(mqttingest.Route{Filter: "t/#", Topic: "telemetry"})
	// A live message (mochi races when a retained publish meets a fresh
	// subscription, so this one is not retained; the flag is not forwarded
	// on established subscriptions anyway, MQTT-3.3.1-9).
	e.mq.Publish("t/state", []byte(egEvent("live")), 1, false)
	got := waitEvents(t, tele, 1)
	testenv.Eventually(t, 5*time.Second, "retained counted", func() bool { return e.in.Stats().Retained == 1 })
	e.acked()
	if len(got) != 1 || got[0]["id"] != "live" {
		t.Errorf("events %v, want only the live one", got)
	}
}

// TestFanOut: a message matching routes to two topics goes to both; two
// routes to the same topic deliver it once.
func TestFanOut(t *testing.T) {
	e := newEnv(t, broker.Config{})
	a := e.topic("a", eventschema.EventGrid)
	b := e.topic("b", eventschema.EventGrid)
	e.start(mqttingest.Route{Filter: "x/#", Topic: "a"}, mqttingest.Route{Filter: "x/+", Topic: "A"},
		mqttingest.Route{Filter: "+/y", Topic: "b"})
	e.mq.Publish("x/y", []byte(egEvent("1")), 1, false)
	waitEvents(t, a, 1)
	waitEvents(t, b, 1)
	e.acked()
	testenv.Never(t, 100*time.Millisecond, "a second copy on topic a", func() bool { return len(events(t, a)) > 1 })
	if s := e.in.Stats(); s.Published != 2 {
		t.Errorf("published %d, want 2", s.Published)
	}
}
