package mqttingest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/destination/webhook"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
	"github.com/edgegrid/edgegrid/mqttingest"
)

const clientID = "edgegrid-test"

// env is an MQTT broker (mochi), the event broker with real webhook
// delivery, and an ingest between them.
type env struct {
	t     *testing.T
	mq    *testenv.MQTTBroker
	b     *broker.Broker
	clock *testenv.ManualClock
	logs  *logSink
	opts  mqttingest.Options
	in    *mqttingest.Ingest
}

func newEnv(t *testing.T, cfg broker.Config) *env {
	t.Helper()
	f := webhook.NewFactory(webhook.Options{Timeout: 10 * time.Second})
	t.Cleanup(f.CloseIdle)
	b, err := broker.New(cfg, broker.WithFactory(destination.WebHook, f))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		b.Shutdown(ctx)
	})
	e := &env{t: t, mq: testenv.StartMQTTBroker(t), b: b, clock: testenv.NewManualClock(), logs: &logSink{}}
	e.opts = mqttingest.Options{URL: e.mq.URL(), ClientID: clientID, Logger: zerolog.New(e.logs), Clock: e.clock,
		ReconnectMax: time.Second}
	return e
}

// topic creates a topic with a webhook subscription and returns the webhook.
func (e *env) topic(name string, s eventschema.Schema) *testenv.Webhook {
	e.t.Helper()
	if _, _, err := e.b.PutTopic(broker.TopicConfig{Name: name, Schema: s}); err != nil {
		e.t.Fatal(err)
	}
	hook := testenv.NewWebhook(e.t)
	_, _, err := e.b.PutSubscription(broker.SubscriptionConfig{Name: name + "-sub", Topic: name, DeliverySchema: s,
		Destination: destination.Endpoint{Type: destination.WebHook, URL: hook.URL}})
	if err != nil {
		e.t.Fatal(err)
	}
	return hook
}

// start builds and starts the ingest with routes and waits until it has
// subscribed.
func (e *env) start(routes ...mqttingest.Route) *mqttingest.Ingest {
	e.t.Helper()
	o := e.opts
	o.Routes = routes
	in, err := mqttingest.New(o, e.b)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() {
		// A worker backing off on the manual clock waits for an Advance that
		// will not come: the deadline abandons it.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = in.Close(ctx)
	})
	in.Start()
	testenv.Eventually(e.t, 15*time.Second, "ingest subscribed", func() bool { return in.Stats().Subscribed })
	e.in = in
	return in
}

// acked waits until the MQTT broker has no unacknowledged message for us.
func (e *env) acked() {
	e.t.Helper()
	testenv.Eventually(e.t, 10*time.Second, "all messages acknowledged", func() bool { return e.mq.Inflight(clientID) == 0 })
}

// events decodes every event the webhook received (bodies are arrays).
func events(t *testing.T, hook *testenv.Webhook) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, r := range hook.Requests() {
		var batch []map[string]any
		if err := json.Unmarshal(r.Body, &batch); err != nil {
			t.Fatalf("webhook body %s: %v", r.Body, err)
		}
		out = append(out, batch...)
	}
	return out
}

// waitEvents waits until the webhook has received n events and returns them.
func waitEvents(t *testing.T, hook *testenv.Webhook, n int) []map[string]any {
	t.Helper()
	testenv.Eventually(t, 10*time.Second, "webhook events", func() bool { return len(events(t, hook)) >= n })
	return events(t, hook)
}

// logSink collects log lines.
type logSink struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *logSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

// count returns how many lines contain every one of subs.
func (s *logSink) count(subs ...string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, l := range strings.Split(s.buf.String(), "\n") {
		all := l != ""
		for _, sub := range subs {
			all = all && strings.Contains(l, sub)
		}
		if all {
			n++
		}
	}
	return n
}

func (s *logSink) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}
