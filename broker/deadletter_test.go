package broker_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

// TestDeadLetterToTopic: an event dropped after its attempts goes to the
// dead-letter topic in the cloud's dead-letter shape, and that topic's own
// subscriptions deliver it.
func TestDeadLetterToTopic(t *testing.T) {
	h := newHarness(t, broker.Config{})
	failing, store := testenv.NewWebhook(t), testenv.NewWebhook(t)
	failing.Script(http.StatusBadRequest)
	h.topic("t", eventschema.EventGrid)
	h.topic("dlq", eventschema.EventGrid)
	h.subscribe("dlq", "store", store.URL)
	h.subscribe("t", "s", failing.URL, func(c *broker.SubscriptionConfig) {
		c.DeadLetter = &broker.DeadLetterDestination{Topic: "dlq"}
	})
	h.publish("t", events(t, "t", "e", 1, `{"k":1}`))
	body := store.WaitCount(t, 1, 2*time.Second)[0].Body
	var got []map[string]any
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	dl := got[0]
	if dl["id"] != "e-0" || dl["topic"] != "t" || dl["deadLetterReason"] != "BadRequest" || dl["deliveryAttempts"] != float64(1) ||
		dl["lastDeliveryOutcome"] != "BadRequest" || dl["publishTime"] == nil || dl["lastDeliveryAttemptTime"] == nil {
		t.Fatalf("dead letter %v", dl)
	}
	if st := h.status("t", "s"); st.Stats.DeadLettered.Load() != 1 {
		t.Fatalf("dead-lettered count %d", st.Stats.DeadLettered.Load())
	}
}

// TestDeadLetterToWebhookAfterTTL: an expired event goes to a dead-letter
// webhook with TimeToLiveExceeded.
func TestDeadLetterToWebhookAfterTTL(t *testing.T) {
	h := newHarness(t, broker.Config{})
	failing, dlHook := testenv.NewWebhook(t), testenv.NewWebhook(t)
	failing.Script(503)
	h.topic("ce", eventschema.CloudEvents)
	h.subscribe("ce", "s", failing.URL, func(c *broker.SubscriptionConfig) {
		c.RetryPolicy = &broker.RetryPolicy{EventExpiryInMinutes: ptr(1)}
		c.DeadLetter = &broker.DeadLetterDestination{Endpoint: &destination.Endpoint{Type: destination.WebHook, URL: dlHook.URL}}
	})
	evs, err := eventschema.Parse(eventschema.CloudEvents, []byte(`{"id":"c1","source":"/s","type":"t","specversion":"1.0"}`), eventschema.Options{Shape: eventschema.ShapeObject})
	if err != nil {
		t.Fatal(err)
	}
	h.publish("ce", evs)
	h.waitRetrying("ce", "s", 1, 1)
	h.clock.Advance(time.Minute)
	req := dlHook.WaitCount(t, 1, 2*time.Second)[0]
	var got []map[string]any
	_ = json.Unmarshal(req.Body, &got)
	if got[0]["deadletterreason"] != "TimeToLiveExceeded" || got[0]["deliveryattempts"] != float64(1) || got[0]["source"] != "/s" {
		t.Fatalf("dead letter %s", req.Body)
	}
	if req.Header.Get("Content-Type") != "application/cloudevents-batch+json; charset=utf-8" {
		t.Fatalf("content type %q", req.Header.Get("Content-Type"))
	}
}

// TestDeadLettersDoNotLoop: dead letters whose own delivery fails are not
// dead-lettered again.
func TestDeadLettersDoNotLoop(t *testing.T) {
	h := newHarness(t, broker.Config{})
	bad := testenv.NewWebhook(t)
	bad.Script(400)
	h.topic("a", eventschema.EventGrid)
	h.topic("b", eventschema.EventGrid)
	h.subscribe("a", "sa", bad.URL, func(c *broker.SubscriptionConfig) { c.DeadLetter = &broker.DeadLetterDestination{Topic: "b"} })
	h.subscribe("b", "sb", bad.URL, func(c *broker.SubscriptionConfig) { c.DeadLetter = &broker.DeadLetterDestination{Topic: "a"} })
	h.publish("a", events(t, "a", "e", 1, `1`))
	h.waitDropped("b", "sb", "BadRequest", 1)
	testenv.Never(t, 50*time.Millisecond, "a dead letter dead-lettered again", func() bool { return bad.Count() > 2 })
	if n := h.status("b", "sb").Stats.DeadLettered.Load(); n != 0 {
		t.Fatalf("dead letter of a dead letter: %d", n)
	}
}

func TestDeadLetterValidation(t *testing.T) {
	h := newHarness(t, broker.Config{})
	h.topic("t", eventschema.EventGrid)
	h.topic("ce", eventschema.CloudEvents)
	h.topic("any", eventschema.Custom)
	tests := map[string]struct {
		dl *broker.DeadLetterDestination
		ok bool
	}{
		"custom topic accepts anything": {&broker.DeadLetterDestination{Topic: "any"}, true},
		"missing topic":                 {&broker.DeadLetterDestination{Topic: "nope"}, false},
		"own topic":                     {&broker.DeadLetterDestination{Topic: "T"}, false},
		"schema mismatch":               {&broker.DeadLetterDestination{Topic: "ce"}, false},
		"bad webhook":                   {&broker.DeadLetterDestination{Endpoint: &destination.Endpoint{Type: destination.WebHook, URL: "nope"}}, false},
		"edgeHub not allowed":           {&broker.DeadLetterDestination{Endpoint: &destination.Endpoint{Type: destination.EdgeHub, OutputName: "o"}}, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, _, err := h.b.PutSubscription(broker.SubscriptionConfig{Name: "s", Topic: "t", DeadLetter: tc.dl,
				Destination: destination.Endpoint{Type: destination.WebHook, URL: "http://127.0.0.1:1"}})
			if tc.ok != (err == nil) || (err != nil && !errors.Is(err, broker.ErrInvalidDeadLetter)) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

// TestDelayedDelivery: after ten failed attempts in a row new events wait in the
// 1-minute queue instead of being attempted at once; the state shows in the
// status and ends with the first success.
func TestDelayedDelivery(t *testing.T) {
	h := newHarness(t, broker.Config{DeliveryConcurrency: 1})
	hook := testenv.NewWebhook(t)
	hook.Script(500)
	h.topic("t", eventschema.EventGrid)
	h.subscribe("t", "s", hook.URL)
	h.publish("t", events(t, "t", "e", 10, `1`))
	hook.WaitCount(t, 10, 2*time.Second)
	testenv.Eventually(t, 2*time.Second, "delayed delivery", func() bool { return h.status("t", "s").Delayed })
	h.waitRetrying("t", "s", 1, 10)
	h.publish("t", events(t, "t", "late", 1, `1`))
	h.waitRetrying("t", "s", 1, 11)
	if n := hook.Count(); n != 10 {
		t.Fatalf("a fresh event was attempted during delayed delivery: %d requests", n)
	}
	hook.Script(200)
	h.clock.Advance(time.Minute)
	testenv.Eventually(t, 2*time.Second, "all delivered", func() bool { return h.status("t", "s").Stats.Delivered.Load() == 11 })
	st := h.status("t", "s")
	if st.Delayed || st.Stats.Deferred.Load() != 1 {
		t.Fatalf("delayed=%v deferred=%d", st.Delayed, st.Stats.Deferred.Load())
	}
	h.publish("t", events(t, "t", "fresh", 1, `1`))
	hook.WaitCount(t, 22, 2*time.Second)
}
