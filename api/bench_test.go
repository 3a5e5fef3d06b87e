package api_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/api"
	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
)

type okFactory struct{}

func (okFactory) Validate(*destination.Endpoint) error { return nil }
func (okFactory) New(*destination.Endpoint) (destination.Sender, error) {
	return okSender{}, nil
}

type okSender struct{}

func (okSender) Send(context.Context, *destination.Delivery) destination.Result {
	return destination.Result{Outcome: destination.Delivered, Status: 200}
}
func (okSender) Close() error { return nil }

// BenchmarkPublish measures a publish request through the handler: body read,
// parse and validation, and fan-out to 10 subscriptions (delivery is a no-op).
func BenchmarkPublish(b *testing.B) {
	for _, n := range []int{1, 100} {
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			br, _ := broker.New(broker.Config{MaxBufferedBytes: 1 << 34}, broker.WithFactory(destination.WebHook, okFactory{}))
			defer br.Shutdown(context.Background())
			a, _ := api.New(api.Options{Broker: br})
			br.PutTopic(broker.TopicConfig{Name: "t"})
			for i := 0; i < 10; i++ {
				br.PutSubscription(broker.SubscriptionConfig{Name: fmt.Sprint("s", i), Topic: "t",
					Destination: destination.Endpoint{Type: destination.WebHook, URL: "http://x"}})
			}
			var sb strings.Builder
			sb.WriteByte('[')
			for i := 0; i < n; i++ {
				if i > 0 {
					sb.WriteByte(',')
				}
				fmt.Fprintf(&sb, `{"id":"%d","eventType":"recordInserted","subject":"myapp/vehicles/motorcycles","eventTime":"2019-07-28T21:03:07+00:00","dataVersion":"1.0","data":{"make":"Ducati","model":"Monster"}}`, i)
			}
			sb.WriteByte(']')
			body := []byte(sb.String())
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, "/topics/t/events?api-version=2019-01-01-preview", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				rec := httptest.NewRecorder()
				a.ServeHTTP(rec, req)
				if rec.Code != 200 {
					b.Fatalf("%d %s", rec.Code, rec.Body)
				}
			}
		})
	}
}
