package edgehub_test

import (
	"context"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/internal/testenv"
)

// BenchmarkPublishOutput measures module output messages per second to the
// edgeHub double over TLS on loopback, each waiting for its PUBACK, with as
// many concurrent publishers as GOMAXPROCS × 8 (the broker's default
// delivery concurrency per subscription).
func BenchmarkPublishOutput(b *testing.B) {
	e := newEnv(b, envOptions{})
	payload := []byte("[" + event + "]")
	ctx := context.Background()
	b.SetParallelism(8)
	b.SetBytes(int64(len(payload)))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := e.c.PublishOutput(ctx, "out", payload); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// BenchmarkInputIngest measures module input messages per second from the
// edgeHub double (QoS 1 over TLS) into the broker, acknowledged, on a topic
// without subscriptions (the broker's fan-out is measured elsewhere).
func BenchmarkInputIngest(b *testing.B) {
	e := newEnv(b, envOptions{})
	e.topic(b, "t")
	payload := []byte(event)
	b.SetBytes(int64(len(payload)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := e.hub.SendInput("t", payload); err != nil {
			b.Fatal(err)
		}
	}
	testenv.Eventually(b, time.Minute, "all inputs acknowledged", func() bool { return e.hub.AckedInputs() >= b.N })
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}
