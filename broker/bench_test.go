package broker_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/filter"
)

// nullFactory's senders succeed at once, so benchmarks measure the broker.
type nullFactory struct{}

func (nullFactory) Validate(*destination.Endpoint) error { return nil }
func (nullFactory) New(*destination.Endpoint) (destination.Sender, error) {
	return nullSender{}, nil
}

type nullSender struct{}

func (nullSender) Send(context.Context, *destination.Delivery) destination.Result {
	return destination.Result{Outcome: destination.Delivered, Status: 200}
}
func (nullSender) Close() error { return nil }

// BenchmarkFanOut publishes one event to a topic with n subscriptions, each with
// a subject filter that matches; delivery is to a sender that succeeds at once.
func BenchmarkFanOut(b *testing.B) {
	for _, n := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("subscriptions=%d", n), func(b *testing.B) {
			br, _ := broker.New(broker.Config{MaxBufferedBytes: 1 << 34}, broker.WithFactory(destination.WebHook, nullFactory{}))
			defer br.Shutdown(context.Background())
			br.PutTopic(broker.TopicConfig{Name: "t", Schema: eventschema.EventGrid})
			for i := 0; i < n; i++ {
				br.PutSubscription(broker.SubscriptionConfig{Name: fmt.Sprint("s", i), Topic: "t",
					Destination: destination.Endpoint{Type: destination.WebHook, URL: "http://x"},
					Filter:      &filter.Spec{SubjectBeginsWith: "sub/"}})
			}
			evs := events(b, "t", "e", 1, `{"a":1}`)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := br.Publish("t", evs); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			for br.BufferedBytes() > 0 {
				time.Sleep(time.Millisecond)
			}
		})
	}
}

// BenchmarkBatchedDelivery publishes 100-event requests to a subscription with
// maxEventsPerBatch 10: fan-out, the batch builder (taking up to 10 queued
// events without waiting) and a sender that succeeds at once.
func BenchmarkBatchedDelivery(b *testing.B) {
	br, _ := broker.New(broker.Config{MaxBufferedBytes: 1 << 34, DeliveryConcurrency: 1},
		broker.WithFactory(destination.WebHook, nullFactory{}))
	defer br.Shutdown(context.Background())
	br.PutTopic(broker.TopicConfig{Name: "t", Schema: eventschema.EventGrid})
	ten := 10
	br.PutSubscription(broker.SubscriptionConfig{Name: "s", Topic: "t", MaxEventsPerBatch: &ten,
		Destination: destination.Endpoint{Type: destination.WebHook, URL: "http://x"}})
	evs := events(b, "t", "e", 100, `{"a":1}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := br.Publish("t", evs); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	for br.BufferedBytes() > 0 {
		time.Sleep(time.Millisecond)
	}
}
