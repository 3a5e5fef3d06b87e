package metrics_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/api"
	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/destination/webhook"
	"github.com/edgegrid/edgegrid/internal/testenv"
	"github.com/edgegrid/edgegrid/metrics"
)

func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url + "/metrics?api-version=2019-01-01-preview")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Fatalf("content type %q", ct)
	}
	body, _ := io.ReadAll(resp.Body)
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("the Prometheus text parser rejects the output: %v\n%s", err, body)
	}
	return fams
}

// value finds the sample of a family whose labels include all of want.
func value(t *testing.T, fams map[string]*dto.MetricFamily, name string, want ...string) float64 {
	t.Helper()
	f, ok := fams[name]
	if !ok {
		t.Fatalf("no metric %s", name)
	}
	for _, m := range f.GetMetric() {
		got := map[string]string{}
		for _, l := range m.GetLabel() {
			got[l.GetName()] = l.GetValue()
		}
		match := true
		for i := 0; i+1 < len(want); i += 2 {
			if got[want[i]] != want[i+1] {
				match = false
			}
		}
		if !match {
			continue
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue()
		case m.Gauge != nil:
			return m.Gauge.GetValue()
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount())
		}
	}
	t.Fatalf("no sample of %s with %v", name, want)
	return 0
}

func TestScrapeAfterTraffic(t *testing.T) {
	f := webhook.NewFactory(webhook.Options{AllowUnknownCA: true})
	b, _ := broker.New(broker.Config{}, broker.WithFactory(destination.WebHook, f))
	defer b.Shutdown(context.Background())
	a, _ := api.New(api.Options{Broker: b, Metrics: metrics.Handler(b, "test"), Logger: zerolog.Nop()})
	srv := httptest.NewServer(a)
	defer srv.Close()
	ok, bad := testenv.NewWebhook(t), testenv.NewWebhook(t)
	bad.Script(400)
	put := func(path, body string) {
		req, _ := http.NewRequest("PUT", srv.URL+path+"?api-version=2019-01-01-preview", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("PUT %s: %v %v", path, resp, err)
		}
		resp.Body.Close()
	}
	put("/topics/t", `{}`)
	put("/topics/t/eventSubscriptions/ok", `{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"`+ok.URL+`"}}}}`)
	put("/topics/t/eventSubscriptions/bad", `{"properties":{"filter":{"subjectBeginsWith":"x"},"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"`+bad.URL+`"}}}}`)
	publish := func(body string) int {
		resp, err := http.Post(srv.URL+"/topics/t/events?api-version=2019-01-01-preview", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	publish(`[{"id":"1","subject":"x/1","eventType":"t","eventTime":"x","dataVersion":"1"},{"id":"2","subject":"y/1","eventType":"t","eventTime":"x","dataVersion":"1"}]`)
	publish(`[{"broken"`)
	ok.WaitCount(t, 2, 2*time.Second)
	bad.WaitCount(t, 1, 2*time.Second)
	// The webhook sees a request before the broker records its outcome: wait
	// for the broker's own counters before scraping.
	testenv.Eventually(t, 2*time.Second, "outcomes recorded", func() bool {
		bad, _ := b.SubscriptionStatus("t", "bad")
		good, _ := b.SubscriptionStatus("t", "ok")
		return bad.Stats.Dropped()["BadRequest"] == 1 && good.Stats.Delivered.Load() == 2
	})

	fams := scrape(t, srv.URL)
	checks := []struct {
		name   string
		labels []string
		want   float64
	}{
		{"EventsReceived", []string{"topic", "t"}, 2},
		{"UnmatchedEvents", []string{"topic", "t"}, 0},
		{"SuccessRequests", []string{"topic", "t"}, 1},
		{"UserErrorRequests", []string{"topic", "t"}, 1},
		{"SystemErrorRequests", []string{"topic", "t"}, 0},
		{"SuccessRequestLatencyMs", []string{"topic", "t"}, 1},
		{"deliverySuccessCounts", []string{"subscription", "ok"}, 2},
		{"deliveryFailureCounts", []string{"subscription", "bad"}, 1},
		{"deliveryAttemptsCount", []string{"subscription", "ok"}, 2},
		{"deliverySuccessLatencyMs", []string{"subscription", "ok"}, 2},
		{"deliveryFailureLatencyMs", []string{"subscription", "bad"}, 1},
		{"systemDelayForFirstAttemptMs", []string{"subscription", "ok"}, 2},
		{"expiredCounts", []string{"subscription", "ok"}, 0},
		{"edgegrid_events_matched_total", []string{"subscription", "bad"}, 1},
		{"edgegrid_events_dropped_total", []string{"subscription", "bad", "reason", "BadRequest"}, 1},
		{"edgegrid_queue_depth", []string{"subscription", "ok", "queue", "1m"}, 0},
		{"edgegrid_subscription_delayed", []string{"subscription", "bad"}, 0},
		{"edgegrid_build_info", []string{"version", "test"}, 1},
	}
	for _, c := range checks {
		if got := value(t, fams, c.name, c.labels...); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	if v := value(t, fams, "process_resident_memory_bytes"); v <= 0 {
		t.Errorf("resident memory %v", v)
	}
	if v := value(t, fams, "go_goroutines"); v <= 0 {
		t.Errorf("goroutines %v", v)
	}
}

func TestLabelEscaping(t *testing.T) {
	var buf bytes.Buffer
	b, _ := broker.New(broker.Config{})
	b.PutTopic(broker.TopicConfig{Name: "a-b_c"})
	if err := metrics.Write(&buf, b, "v\"1\n"); err != nil {
		t.Fatal(err)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	if _, err := p.TextToMetricFamilies(&buf); err != nil {
		t.Fatalf("escaped output does not parse: %v", err)
	}
}

func TestExtraSamples(t *testing.T) {
	var buf bytes.Buffer
	b, _ := broker.New(broker.Config{})
	extra := func() []metrics.Sample {
		return []metrics.Sample{
			{Name: "edgegrid_mqtt_messages_refused_total", Help: "Refused.", Labels: []string{"cause", "not JSON"}, Value: 3},
			{Name: "edgegrid_mqtt_messages_refused_total", Labels: []string{"cause", "no route"}, Value: 1},
			{Name: "edgegrid_mqtt_connected", Help: "Up.", Gauge: true, Value: 1},
		}
	}
	if err := metrics.Write(&buf, b, "v", extra); err != nil {
		t.Fatal(err)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if got := value(t, fams, "edgegrid_mqtt_messages_refused_total", "cause", "not JSON"); got != 3 {
		t.Fatalf("refused %v", got)
	}
	if fams["edgegrid_mqtt_connected"].GetType() != dto.MetricType_GAUGE || len(fams["edgegrid_mqtt_messages_refused_total"].GetMetric()) != 2 {
		t.Fatalf("families %v", fams)
	}
}
