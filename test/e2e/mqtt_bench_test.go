package e2e

import (
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/internal/testenv"
)

// TestMQTTIngestThroughput measures MQTT ingest through the real binary next
// to mosquitto's own pub→sub rate on the same machine. It is a measurement,
// not an assertion, and runs only when asked:
//
//	EDGEGRID_BENCH=1 go test -run TestMQTTIngestThroughput -v ./test/e2e
//
// Method: one mosquitto (Debian's, loopback, persistence on) and one
// mosquitto_pub -l -q 1 process publishing N Event Grid events (≈190 bytes
// each, N=20000 unless EDGEGRID_BENCH_N says otherwise) from stdin; the clock
// runs from starting mosquitto_pub until the last message arrives.
//   - baseline: mosquitto_sub -q 1 receives them (mosquitto pub→sub);
//   - edgegrid: the module ingests them (QoS 1, acknowledged after the broker
//     accepted each) and delivers them to a local HTTP webhook, once with
//     one event per request (the default) and once with maxEventsPerBatch
//     50 (the API's limit), which leaves the ingest as the bottleneck.
//
// Each case runs three times; the median is printed.
func TestMQTTIngestThroughput(t *testing.T) {
	if os.Getenv("EDGEGRID_BENCH") != "1" {
		t.Skip("a measurement; run with EDGEGRID_BENCH=1")
	}
	n := 20000
	if v, err := strconv.Atoi(os.Getenv("EDGEGRID_BENCH_N")); err == nil && v > 0 {
		n = v
	}
	var in strings.Builder
	for i := 1; i <= n; i++ {
		in.WriteString(mqttEvent(i) + "\n")
	}
	lines := in.String()
	mos := testenv.StartMosquitto(t)
	report := func(name string, f func() time.Duration) {
		var rates []float64
		for range 3 {
			rates = append(rates, float64(n)/f().Seconds())
		}
		slices.Sort(rates)
		t.Logf("%-40s %8.0f msg/s (runs: %.0f, %.0f, %.0f)", name, rates[1], rates[0], rates[1], rates[2])
	}
	report("mosquitto pub→sub (QoS 1)", func() time.Duration { return baseline(t, mos, lines, n) })
	m := startModule(t, "mqtt__url="+mos.URL(), "mqtt__routes=bench/#=bench", "mqtt__clientId=bench-ingest", "log__level=info")
	for _, batch := range []string{"", `,"maxEventsPerBatch":50`} {
		hook := testenv.NewWebhook(t)
		m.must("PUT", m.HTTPURL+"/topics/bench"+q, `{"properties":{"inputSchema":"EventGridSchema"}}`)
		m.must("PUT", m.HTTPURL+"/topics/bench/eventSubscriptions/hook"+q,
			`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"`+hook.URL+`"`+batch+`}}}}`)
		name := "edgegrid MQTT→webhook, 1 event/request"
		if batch != "" {
			name = "edgegrid MQTT→webhook, batches of 50"
		}
		report(name, func() time.Duration { return throughEdgegrid(t, mos, hook, lines, n) })
		m.must("DELETE", m.HTTPURL+"/topics/bench"+q, "")
	}
	if w := m.LogLines("the ingest queue has drained after being full; reconnecting so the MQTT broker sends the unacknowledged messages again"); len(w) > 0 {
		t.Logf("the ingest queue overflowed %d times (resyncs)", len(w))
	}
}

// baseline times mosquitto_pub → mosquitto → mosquitto_sub.
func baseline(t *testing.T, mos *testenv.Mosquitto, lines string, n int) time.Duration {
	sub := mos.Subscribe(t, "bench/x")
	defer sub.Close()
	begin := time.Now()
	pub := mos.Pub("-l", "-q", "1", "-t", "bench/x")
	pub.Stdin = strings.NewReader(lines)
	if err := pub.Start(); err != nil {
		t.Fatal(err)
	}
	for range n {
		sub.Next(t)
	}
	d := time.Since(begin)
	if err := pub.Wait(); err != nil {
		t.Fatal(err)
	}
	return d
}

// throughEdgegrid times mosquitto_pub → mosquitto → edgegrid → webhook.
func throughEdgegrid(t *testing.T, mos *testenv.Mosquitto, hook *testenv.Webhook, lines string, n int) time.Duration {
	c := &eventCounter{hook: hook}
	base := c.count(t)
	begin := time.Now()
	pub := mos.Pub("-l", "-q", "1", "-t", "bench/x")
	pub.Stdin = strings.NewReader(lines)
	if err := pub.Start(); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 5*time.Minute, "every event at the webhook", func() bool { return c.count(t)-base >= n })
	d := time.Since(begin)
	if err := pub.Wait(); err != nil {
		t.Fatal(err)
	}
	return d
}

// eventCounter counts the events in a webhook's requests, parsing each
// request once.
type eventCounter struct {
	hook   *testenv.Webhook
	mu     sync.Mutex
	seen   int
	events int
}

func (c *eventCounter) count(t *testing.T) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	reqs := c.hook.Requests()
	for _, r := range reqs[c.seen:] {
		var batch []json.RawMessage
		if err := json.Unmarshal(r.Body, &batch); err != nil {
			t.Fatalf("webhook body: %v", err)
		}
		c.events += len(batch)
	}
	c.seen = len(reqs)
	return c.events
}
