package eventgrid_test

import (
	"context"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/destination/eventgrid"
	"github.com/edgegrid/edgegrid/destination/webhook"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

// TestCloudNeverBlocksLocalDelivery: one topic with a local webhook and a
// cloud subscription. The cloud holds every request (or refuses connections):
// every event still reaches the webhook, while the cloud subscription has
// delivered nothing. Senders are per subscription and so are their delivery
// slots.
func TestCloudNeverBlocksLocalDelivery(t *testing.T) {
	for _, mode := range []string{"hanging", "unreachable"} {
		t.Run(mode, func(t *testing.T) {
			r := newRig(t, testenv.CloudOptions{Key: "K"}, eventgrid.Options{Timeout: time.Minute})
			url := r.cloud.URL
			if mode == "hanging" {
				r.cloud.Hang()
			} else {
				r.cloud.Server.Close()
			}
			hook := testenv.NewWebhook(t)
			b := newBroker(t, broker.Config{}, r.f)
			subscribe(t, b, "local", destination.Endpoint{Type: destination.WebHook, URL: hook.URL})
			subscribe(t, b, "cloud", destination.Endpoint{Type: destination.EventGrid, URL: url, SASKey: "K"})
			const n = 40
			evs := parse(t, eventschema.EventGrid, string(eventschema.AppendBatch(nil, egEvents(t, n, 10))))
			if _, err := b.Publish("t1", evs); err != nil {
				t.Fatal(err)
			}
			hook.WaitCount(t, n, 10*time.Second)
			if mode == "hanging" { // the cloud path really was stuck meanwhile
				testenv.Eventually(t, 5*time.Second, "a held cloud request", func() bool { return r.cloud.Held() > 0 })
			}
			_, subs := b.Statuses()
			for _, s := range subs {
				if s.Name == "cloud" && s.Stats.Delivered.Load() != 0 {
					t.Fatalf("the cloud subscription delivered %d events", s.Stats.Delivered.Load())
				}
			}
		})
	}
}

func newBroker(t *testing.T, cfg broker.Config, cloud *eventgrid.Factory) *broker.Broker {
	t.Helper()
	hooks := webhook.NewFactory(webhook.Options{Timeout: 5 * time.Second})
	t.Cleanup(hooks.CloseIdle)
	b, err := broker.New(cfg, broker.WithFactory(destination.WebHook, hooks), broker.WithFactory(destination.EventGrid, cloud))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		b.Shutdown(ctx)
	})
	if _, _, err := b.PutTopic(broker.TopicConfig{Name: "t1", Schema: eventschema.EventGrid}); err != nil {
		t.Fatal(err)
	}
	return b
}

func subscribe(t *testing.T, b *broker.Broker, name string, ep destination.Endpoint, mods ...func(*broker.SubscriptionConfig)) {
	t.Helper()
	cfg := broker.SubscriptionConfig{Name: name, Topic: "t1", DeliverySchema: eventschema.EventGrid, Destination: ep}
	for _, m := range mods {
		m(&cfg)
	}
	if _, _, err := b.PutSubscription(cfg); err != nil {
		t.Fatal(err)
	}
}
