package broker_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

// TestRetrySchedule: first attempt at once, the second one minute later, then
// every ten minutes, exactly maxDeliveryAttempts attempts, then the event is
// dropped with MaxDeliveryAttemptsExceeded.
func TestRetrySchedule(t *testing.T) {
	h := newHarness(t, broker.Config{DefaultMaxDeliveryAttempts: 4})
	hook := testenv.NewWebhook(t)
	hook.Script(http.StatusInternalServerError)
	h.topic("t", eventschema.EventGrid)
	h.subscribe("t", "s", hook.URL)
	start := h.clock.Now()
	h.publish("t", events(t, "t", "e", 1, `{"a":1}`))

	hook.WaitCount(t, 1, 2*time.Second)
	h.waitRetrying("t", "s", 1, 1)
	h.clock.Advance(time.Minute - time.Second)
	testenv.Never(t, 30*time.Millisecond, "retry before one minute", func() bool { return hook.Count() > 1 })
	h.clock.Advance(time.Second)
	hook.WaitCount(t, 2, 2*time.Second)
	h.waitRetrying("t", "s", 10, 1)
	for attempt := 3; attempt <= 4; attempt++ {
		h.clock.Advance(10*time.Minute - time.Second)
		testenv.Never(t, 30*time.Millisecond, "retry before ten minutes", func() bool { return hook.Count() >= attempt })
		h.clock.Advance(time.Second)
		hook.WaitCount(t, attempt, 2*time.Second)
		if attempt < 4 {
			h.waitRetrying("t", "s", 10, 1)
		}
	}
	h.waitDropped("t", "s", "MaxDeliveryAttemptsExceeded", 1)
	h.clock.Advance(time.Hour)
	testenv.Never(t, 50*time.Millisecond, "attempt beyond the maximum", func() bool { return hook.Count() > 4 })

	reqs := hook.Requests()
	for i, want := range []string{"0", "1", "2", "3"} {
		if got := reqs[i].Header.Get("aeg-delivery-count"); got != want {
			t.Errorf("attempt %d aeg-delivery-count = %s", i+1, got)
		}
	}
	if st := h.status("t", "s"); st.Stats.Attempts.Load() != 4 || st.OneMinute+st.TenMinutes+st.Ready != 0 {
		t.Fatalf("attempts=%d queues=%+v", st.Stats.Attempts.Load(), st)
	}
	if h.b.BufferedBytes() != 0 {
		t.Fatalf("dropped event still buffered: %d bytes", h.b.BufferedBytes())
	}
	_ = start
}

// TestTTLCheckedAtNextAttempt: a 15-minute expiry ends retries at the attempt due
// at 21 minutes (after attempts at 0, 1 and 11 minutes), not before.
func TestTTLCheckedAtNextAttempt(t *testing.T) {
	h := newHarness(t, broker.Config{})
	hook := testenv.NewWebhook(t)
	hook.Script(http.StatusServiceUnavailable)
	h.topic("t", eventschema.EventGrid)
	h.subscribe("t", "s", hook.URL, func(c *broker.SubscriptionConfig) {
		c.RetryPolicy = &broker.RetryPolicy{EventExpiryInMinutes: ptr(15)}
	})
	h.publish("t", events(t, "t", "e", 1, `1`))
	hook.WaitCount(t, 1, 2*time.Second)
	h.waitRetrying("t", "s", 1, 1)
	h.clock.Advance(time.Minute)
	hook.WaitCount(t, 2, 2*time.Second)
	h.waitRetrying("t", "s", 10, 1)
	h.clock.Advance(10 * time.Minute)
	hook.WaitCount(t, 3, 2*time.Second)
	h.waitRetrying("t", "s", 10, 1)
	// TTL passes at 15 minutes, but nothing happens until the attempt due at 21.
	h.clock.Advance(5 * time.Minute)
	testenv.Never(t, 30*time.Millisecond, "drop before the next attempt", func() bool {
		return h.status("t", "s").Stats.Dropped()["TimeToLiveExceeded"] > 0
	})
	h.clock.Advance(5 * time.Minute)
	h.waitDropped("t", "s", "TimeToLiveExceeded", 1)
	if hook.Count() != 3 {
		t.Fatalf("expired event was attempted: %d attempts", hook.Count())
	}
}

// TestOverridesBeatDefaults: a subscription's retryPolicy wins over the broker
// defaults, and a subscription without one uses the defaults.
func TestOverridesBeatDefaults(t *testing.T) {
	h := newHarness(t, broker.Config{DefaultMaxDeliveryAttempts: 3})
	over, def := testenv.NewWebhook(t), testenv.NewWebhook(t)
	over.Script(500)
	def.Script(500)
	h.topic("t", eventschema.EventGrid)
	h.subscribe("t", "override", over.URL, func(c *broker.SubscriptionConfig) {
		c.RetryPolicy = &broker.RetryPolicy{MaxDeliveryAttempts: ptr(2)}
	})
	h.subscribe("t", "default", def.URL)
	h.publish("t", events(t, "t", "e", 1, `1`))
	over.WaitCount(t, 1, 2*time.Second)
	def.WaitCount(t, 1, 2*time.Second)
	h.waitRetrying("t", "override", 1, 1)
	h.waitRetrying("t", "default", 1, 1)
	h.clock.Advance(time.Minute)
	h.waitDropped("t", "override", "MaxDeliveryAttemptsExceeded", 1)
	h.waitRetrying("t", "default", 10, 1)
	h.clock.Advance(10 * time.Minute)
	h.waitDropped("t", "default", "MaxDeliveryAttemptsExceeded", 1)
	if over.Count() != 2 || def.Count() != 3 {
		t.Fatalf("attempts override=%d default=%d", over.Count(), def.Count())
	}
}

// TestStatusOutcomes: 200-204 are success at the first attempt; 400, 401, 403
// and 413 are attempted once and dropped; others are retried.
func TestStatusOutcomes(t *testing.T) {
	tests := map[string]struct {
		status  int
		dropped string // "" = delivered; "retry" = waiting in the 1-minute queue
	}{
		"200": {200, ""}, "201": {201, ""}, "202": {202, ""}, "203": {203, ""}, "204": {204, ""},
		"400": {400, "BadRequest"}, "401": {401, "Unauthorized"},
		"403": {403, "Forbidden"}, "413": {413, "PayloadTooLarge"},
		"404": {404, "retry"}, "429": {429, "retry"}, "500": {500, "retry"}, "503": {503, "retry"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, broker.Config{})
			hook := testenv.NewWebhook(t)
			hook.Script(tc.status)
			h.topic("t", eventschema.EventGrid)
			h.subscribe("t", "s", hook.URL)
			h.publish("t", events(t, "t", "e", 1, `1`))
			hook.WaitCount(t, 1, 2*time.Second)
			switch tc.dropped {
			case "":
				testenv.Eventually(t, 2*time.Second, "delivered", func() bool { return h.status("t", "s").Stats.Delivered.Load() == 1 })
			case "retry":
				h.waitRetrying("t", "s", 1, 1)
			default:
				h.waitDropped("t", "s", tc.dropped, 1)
				h.clock.Advance(time.Hour)
				testenv.Never(t, 30*time.Millisecond, "a second attempt", func() bool { return hook.Count() > 1 })
			}
		})
	}
}

// TestFailTwiceThenSucceed: the event arrives on the third attempt and nothing
// stays buffered.
func TestFailTwiceThenSucceed(t *testing.T) {
	h := newHarness(t, broker.Config{})
	hook := testenv.NewWebhook(t)
	hook.Script(500, 502, 200)
	h.topic("t", eventschema.EventGrid)
	h.subscribe("t", "s", hook.URL)
	h.publish("t", events(t, "t", "e", 1, `1`))
	hook.WaitCount(t, 1, 2*time.Second)
	h.waitRetrying("t", "s", 1, 1)
	h.clock.Advance(time.Minute)
	h.waitRetrying("t", "s", 10, 1)
	h.clock.Advance(10 * time.Minute)
	hook.WaitCount(t, 3, 2*time.Second)
	testenv.Eventually(t, 2*time.Second, "delivered", func() bool { return h.status("t", "s").Stats.Delivered.Load() == 1 })
	reqs := hook.Requests()
	if string(reqs[0].Body) != string(reqs[2].Body) {
		t.Fatal("retried body differs from the first attempt")
	}
	testenv.Eventually(t, time.Second, "buffer released", func() bool { return h.b.BufferedBytes() == 0 })
}
