package eventschema

import (
	"fmt"
	"strings"
	"testing"
)

var sinkEvents []*Event

func benchBody(n int) []byte {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"%08d-0000-4000-8000-000000000000","eventType":"recordInserted","subject":"myapp/vehicles/motorcycles","eventTime":"2019-07-28T21:03:07+00:00","dataVersion":"1.0","data":{"make":"Ducati","model":"Monster","speed":%d,"tags":{"a":"b"}}}`, i, i)
	}
	b.WriteByte(']')
	return []byte(b.String())
}

func BenchmarkParseEventGrid(b *testing.B) {
	for _, n := range []int{1, 100} {
		body := benchBody(n)
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				evs, err := Parse(EventGrid, body, Options{Topic: "sampleTopic1"})
				if err != nil {
					b.Fatal(err)
				}
				sinkEvents = evs
			}
		})
	}
}

func BenchmarkParseCloudEvents(b *testing.B) {
	body := []byte(`[` + strings.Repeat(ceDoc+`,`, 99) + ceDoc + `]`)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		evs, err := Parse(CloudEvents, body, Options{Topic: "t"})
		if err != nil {
			b.Fatal(err)
		}
		sinkEvents = evs
	}
}

var sinkBytes []byte

// BenchmarkAppendBatch builds the body of a 10-event delivery into a reused buffer.
func BenchmarkAppendBatch(b *testing.B) {
	evs, err := Parse(EventGrid, benchBody(10), Options{Topic: "t"})
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 8<<10)
	b.SetBytes(int64(BatchSize(evs)))
	b.ReportAllocs()
	for b.Loop() {
		sinkBytes = AppendBatch(buf[:0], evs)
	}
}
