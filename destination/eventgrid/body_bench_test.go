package eventgrid

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/eventschema"
)

var planSink plan

// BenchmarkPlan measures encoding a delivery for the cloud: the topicName
// rewrite of each Event Grid event and the packing into request bodies.
func BenchmarkPlan(b *testing.B) {
	for _, tc := range []struct {
		n, size int
		schema  eventschema.Schema
	}{{1, 1 << 10, eventschema.EventGrid}, {10, 1 << 10, eventschema.EventGrid}, {50, 20 << 10, eventschema.EventGrid}, {50, 20 << 10, eventschema.Custom}} {
		b.Run(fmt.Sprintf("%s/%dx%dB", tc.schema, tc.n, tc.size), func(b *testing.B) {
			var body strings.Builder
			body.WriteByte('[')
			for i := range tc.n {
				if i > 0 {
					body.WriteByte(',')
				}
				fmt.Fprintf(&body, `{"id":"e%d","subject":"s","eventType":"t","eventTime":"2026-01-01T00:00:00Z","dataVersion":"1","data":{"p":"%s"}}`, i, strings.Repeat("x", tc.size))
			}
			body.WriteByte(']')
			evs, err := eventschema.Parse(tc.schema, []byte(body.String()), eventschema.Options{Topic: "local"})
			if err != nil {
				b.Fatal(err)
			}
			s := &Sender{topic: json.RawMessage(`"cloudTopic"`)}
			d := &destination.Delivery{Schema: tc.schema, Events: evs}
			b.SetBytes(int64(eventschema.BatchSize(evs)))
			b.ReportAllocs()
			for b.Loop() {
				planSink, _ = s.plan(d)
			}
		})
	}
}
