package broker_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

// TestHangingSubscriberDoesNotHoldOthers: one subscriber never answers; another
// on the same topic gets every event at once.
func TestHangingSubscriberDoesNotHoldOthers(t *testing.T) {
	h := newHarness(t, broker.Config{DeliveryConcurrency: 2})
	slow, fast := testenv.NewWebhook(t), testenv.NewWebhook(t)
	slow.Hang()
	h.topic("t", eventschema.EventGrid)
	h.subscribe("t", "slow", slow.URL)
	h.subscribe("t", "fast", fast.URL)
	for i := 0; i < 20; i++ {
		h.publish("t", events(t, "t", "e", 1, `1`))
	}
	fast.WaitCount(t, 20, 3*time.Second)
	testenv.Eventually(t, 2*time.Second, "the hanging subscriber's two requests in flight, 18 waiting", func() bool {
		return slow.Count() == 2 && h.status("t", "slow").Ready == 18
	})
	testenv.Never(t, 50*time.Millisecond, "more requests than the subscription's concurrency", func() bool { return slow.Count() > 2 })
}

// TestMemoryCap: beyond the buffered-bytes cap publish fails with ErrBusy and
// accepts nothing; everything accepted before is delivered later.
func TestMemoryCap(t *testing.T) {
	h := newHarness(t, broker.Config{MaxBufferedBytes: 8 << 10})
	hook := testenv.NewWebhook(t)
	hook.Hang()
	h.topic("t", eventschema.EventGrid)
	h.subscribe("t", "s", hook.URL)
	accepted := 0
	var busy error
	for i := 0; i < 100 && busy == nil; i++ {
		evs := events(t, "t", "e", 2, `"`+string(make([]byte, 0))+`payload"`)
		if _, err := h.b.Publish("t", evs); err != nil {
			busy = err
			break
		}
		accepted += 2
	}
	if !errors.Is(busy, broker.ErrBusy) {
		t.Fatalf("no ErrBusy after %d events: %v", accepted, busy)
	}
	if h.b.BufferedBytes() > 8<<10 {
		t.Fatalf("buffered %d bytes above the cap", h.b.BufferedBytes())
	}
	hook.Script(200)
	hook.Unhang()
	testenv.Eventually(t, 3*time.Second, "all accepted events delivered", func() bool {
		return h.status("t", "s").Stats.Delivered.Load() == int64(accepted)
	})
	testenv.Eventually(t, time.Second, "buffer empty", func() bool { return h.b.BufferedBytes() == 0 })
	if _, err := h.b.Publish("t", events(t, "t", "after", 2, `1`)); err != nil {
		t.Fatalf("publish after drain: %v", err)
	}
}

// TestShutdownDrainsAndCountsLoss: queued events are delivered during the grace
// period; events behind a dead subscriber are reported lost.
func TestShutdownDrainsAndCountsLoss(t *testing.T) {
	h := newHarness(t, broker.Config{DeliveryConcurrency: 1})
	ok, dead := testenv.NewWebhook(t), testenv.NewWebhook(t)
	dead.Script(500)
	h.topic("t", eventschema.EventGrid)
	h.subscribe("t", "ok", ok.URL)
	h.subscribe("t", "dead", dead.URL)
	h.publish("t", events(t, "t", "e", 5, `1`))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	losses := h.b.Shutdown(ctx)
	if ok.Count() != 5 {
		t.Fatalf("healthy subscriber got %d of 5 during the drain", ok.Count())
	}
	if len(losses) != 1 || losses[0].Subscription != "dead" || losses[0].Events != 5 {
		t.Fatalf("losses %+v", losses)
	}
	if _, err := h.b.Publish("t", events(t, "t", "late", 1, `1`)); !errors.Is(err, broker.ErrShuttingDown) {
		t.Fatalf("publish after shutdown: %v", err)
	}
	if h.b.BufferedBytes() != 0 {
		t.Fatalf("%d bytes still buffered", h.b.BufferedBytes())
	}
}

// TestShutdownGivesRetriesALastAttempt: an event waiting in the 1-minute queue is
// attempted during the drain and delivered if the subscriber is back.
func TestShutdownGivesRetriesALastAttempt(t *testing.T) {
	h := newHarness(t, broker.Config{})
	hook := testenv.NewWebhook(t)
	hook.Script(500, 200)
	h.topic("t", eventschema.EventGrid)
	h.subscribe("t", "s", hook.URL)
	h.publish("t", events(t, "t", "e", 1, `1`))
	h.waitRetrying("t", "s", 1, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if losses := h.b.Shutdown(ctx); len(losses) != 0 {
		t.Fatalf("losses %+v", losses)
	}
	if hook.Count() != 2 {
		t.Fatalf("%d attempts", hook.Count())
	}
}
