package broker_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

func batchSizes(t *testing.T, hook *testenv.Webhook) (sizes []int, bytes []int, ids []string) {
	t.Helper()
	for _, r := range hook.Requests() {
		var arr []struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(r.Body, &arr); err != nil {
			t.Fatalf("body not a JSON array: %s", r.Body)
		}
		sizes = append(sizes, len(arr))
		bytes = append(bytes, len(r.Body))
		for _, e := range arr {
			ids = append(ids, e.ID)
		}
	}
	return
}

// fillThenRelease publishes while the subscriber hangs on its first request, so
// the rest queue up, then lets the subscriber answer.
func fillThenRelease(t *testing.T, h *harness, hook *testenv.Webhook, first, rest []*eventschema.Event) {
	t.Helper()
	hook.Hang()
	h.publish("t", first)
	hook.WaitCount(t, 1, 2*time.Second)
	h.publish("t", rest)
	hook.Script(200)
	hook.Unhang()
}

func TestBatchingOffByDefault(t *testing.T) {
	h := newHarness(t, broker.Config{})
	hook := testenv.NewWebhook(t)
	h.topic("t", eventschema.EventGrid)
	h.subscribe("t", "s", hook.URL)
	h.publish("t", events(t, "t", "e", 3, `1`))
	hook.WaitCount(t, 3, 2*time.Second)
	sizes, _, _ := batchSizes(t, hook)
	for _, n := range sizes {
		if n != 1 {
			t.Fatalf("batch sizes %v, want one event per request", sizes)
		}
	}
}

func TestBatchingByCount(t *testing.T) {
	h := newHarness(t, broker.Config{DeliveryConcurrency: 1})
	hook := testenv.NewWebhook(t)
	h.topic("t", eventschema.EventGrid)
	h.subscribe("t", "s", hook.URL, func(c *broker.SubscriptionConfig) { c.MaxEventsPerBatch = ptr(10) })
	fillThenRelease(t, h, hook, events(t, "t", "first", 1, `1`), events(t, "t", "e", 25, `1`))
	testenv.Eventually(t, 2*time.Second, "26 events", func() bool { _, _, ids := batchSizes(t, hook); return len(ids) == 26 })
	sizes, bytes, _ := batchSizes(t, hook)
	if len(sizes) != 4 || sizes[1] != 10 || sizes[2] != 10 || sizes[3] != 5 {
		t.Fatalf("batch sizes %v, want [1 10 10 5]", sizes)
	}
	for _, b := range bytes {
		if b > broker.DefaultMaxBatchBytes {
			t.Fatalf("batch of %d bytes exceeds the default size cap", b)
		}
	}
}

func TestBatchingByBytes(t *testing.T) {
	h := newHarness(t, broker.Config{DeliveryConcurrency: 1})
	hook := testenv.NewWebhook(t)
	h.topic("t", eventschema.EventGrid)
	h.subscribe("t", "s", hook.URL, func(c *broker.SubscriptionConfig) { c.PreferredBatchSizeInKilobytes = ptr(1) })
	data := `"` + strings.Repeat("x", 300) + `"` // each event ~ 450 bytes: two fit in 1 KB, three do not
	fillThenRelease(t, h, hook, events(t, "t", "first", 1, data), events(t, "t", "e", 6, data))
	testenv.Eventually(t, 2*time.Second, "7 events", func() bool { _, _, ids := batchSizes(t, hook); return len(ids) == 7 })
	sizes, bytes, _ := batchSizes(t, hook)
	for i, b := range bytes {
		if b > 1024 {
			t.Fatalf("request %d is %d bytes, above 1 KB", i, b)
		}
	}
	if len(sizes) != 4 || sizes[1] != 2 {
		t.Fatalf("batch sizes %v, want [1 2 2 2]", sizes)
	}
}

func TestOversizeEventGoesAlone(t *testing.T) {
	h := newHarness(t, broker.Config{DeliveryConcurrency: 1})
	hook := testenv.NewWebhook(t)
	h.topic("t", eventschema.EventGrid)
	h.subscribe("t", "s", hook.URL, func(c *broker.SubscriptionConfig) {
		c.MaxEventsPerBatch = ptr(10)
		c.PreferredBatchSizeInKilobytes = ptr(1)
	})
	big := events(t, "t", "big", 1, `"`+strings.Repeat("y", 3000)+`"`)
	small := events(t, "t", "small", 2, `1`)
	fillThenRelease(t, h, hook, events(t, "t", "first", 1, `1`), append(big, small...))
	testenv.Eventually(t, 2*time.Second, "4 events", func() bool { _, _, ids := batchSizes(t, hook); return len(ids) == 4 })
	sizes, bytes, _ := batchSizes(t, hook)
	if len(sizes) != 3 || sizes[1] != 1 || bytes[1] < 3000 || sizes[2] != 2 {
		t.Fatalf("sizes %v bytes %v: the big event must go alone, then the small ones together", sizes, bytes)
	}
}

func TestFailedBatchRetriedWhole(t *testing.T) {
	h := newHarness(t, broker.Config{DeliveryConcurrency: 1})
	hook := testenv.NewWebhook(t)
	h.topic("t", eventschema.EventGrid)
	h.subscribe("t", "s", hook.URL, func(c *broker.SubscriptionConfig) { c.MaxEventsPerBatch = ptr(5) })
	hook.Hang()
	h.publish("t", events(t, "t", "first", 1, `1`))
	hook.WaitCount(t, 1, 2*time.Second)
	h.publish("t", events(t, "t", "e", 4, `1`))
	hook.Script(200, 500, 200) // first request answers 200, the batch fails once, then succeeds
	hook.Unhang()
	hook.WaitCount(t, 2, 2*time.Second)
	h.waitRetrying("t", "s", 1, 1)
	h.clock.Advance(time.Minute)
	hook.WaitCount(t, 3, 2*time.Second)
	reqs := hook.Requests()
	if string(reqs[1].Body) != string(reqs[2].Body) {
		t.Fatalf("retried batch differs:\n%s\n%s", reqs[1].Body, reqs[2].Body)
	}
	if reqs[2].Header.Get("aeg-delivery-count") != "1" {
		t.Fatalf("aeg-delivery-count %q", reqs[2].Header.Get("aeg-delivery-count"))
	}
	testenv.Eventually(t, time.Second, "all delivered", func() bool { return h.status("t", "s").Stats.Delivered.Load() == 5 })
}

func TestLegacyDeliveryPolicyBatches(t *testing.T) {
	h := newHarness(t, broker.Config{DeliveryConcurrency: 1})
	hook := testenv.NewWebhook(t)
	h.topic("t", eventschema.EventGrid)
	h.subscribe("t", "s", hook.URL, func(c *broker.SubscriptionConfig) {
		c.DeliveryPolicy = &broker.DeliveryPolicy{MaxEventsPerBatch: ptr(3)}
	})
	fillThenRelease(t, h, hook, events(t, "t", "first", 1, `1`), events(t, "t", "e", 6, `1`))
	testenv.Eventually(t, 2*time.Second, "7 events", func() bool { _, _, ids := batchSizes(t, hook); return len(ids) == 7 })
	if sizes, _, _ := batchSizes(t, hook); len(sizes) != 3 || sizes[1] != 3 || sizes[2] != 3 {
		t.Fatalf("sizes %v", sizes)
	}
}
