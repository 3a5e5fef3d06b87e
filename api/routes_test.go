package api_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

// TestDocumentedFlow replays the tutorial: create topic, get it, subscribe,
// get the subscription, publish, receive, delete.
func TestDocumentedFlow(t *testing.T) {
	e := newEnv(t, broker.Config{})
	hook := testenv.NewWebhook(t)

	r := e.do("PUT", "/topics/sampleTopic1"+q, `{"name":"sampleTopic1","properties":{"inputschema":"eventGridSchema"}}`)
	if r.status != 200 || !strings.Contains(r.body, `"inputSchema":"EventGridSchema"`) {
		t.Fatalf("create topic: %d %s", r.status, r.body)
	}
	r = e.do("GET", "/topics/sampleTopic1"+q, "")
	want := `{"id":"/iotHubs/hub/devices/dev/modules/eventgridmodule/topics/sampleTopic1","name":"sampleTopic1","type":"Microsoft.EventGrid/topics","properties":{"endpoint":"` +
		e.srv.URL + `/topics/sampleTopic1/events?api-version=2019-01-01-preview","inputSchema":"EventGridSchema"}}`
	if r.status != 200 || r.body != want {
		t.Fatalf("get topic:\n got %s\nwant %s", r.body, want)
	}
	e.mustSub("sampleTopic1", "sampleSubscription1", hook.URL)
	r = e.do("GET", "/topics/sampleTopic1/eventSubscriptions/sampleSubscription1"+q, "")
	if r.status != 200 || !strings.Contains(r.body, `"endpointUrl":"`+hook.URL+`"`) || !strings.Contains(r.body, `"topic":"sampleTopic1"`) {
		t.Fatalf("get subscription: %d %s", r.status, r.body)
	}
	r = e.do("POST", "/topics/sampleTopic1/events"+q,
		`[{"id":"eventId-func-0","eventType":"recordInserted","subject":"myapp/vehicles/motorcycles","eventTime":"2019-07-28T21:03:07+00:00","dataVersion":"1.0","data":{"make":"Ducati","model":"Monster"}}]`)
	if r.status != 200 || r.body != "" {
		t.Fatalf("publish: %d %q", r.status, r.body)
	}
	reqs := hook.WaitCount(t, 1, 2*time.Second)
	wantEvent := `[{"id":"eventId-func-0","topic":"sampleTopic1","subject":"myapp/vehicles/motorcycles","eventType":"recordInserted","eventTime":"2019-07-28T21:03:07+00:00","dataVersion":"1.0","metadataVersion":"1","data":{"make":"Ducati","model":"Monster"}}]`
	if string(reqs[0].Body) != wantEvent {
		t.Fatalf("delivered %s", reqs[0].Body)
	}
	if r = e.do("DELETE", "/topics/sampleTopic1"+q, ""); r.status != 200 || r.body != "" {
		t.Fatalf("delete: %d %q", r.status, r.body)
	}
	r = e.do("GET", "/topics/sampleTopic1/eventSubscriptions/sampleSubscription1"+q, "")
	if _, detail, _ := errorOf(t, r); r.status != 404 || detail != "TopicNotFound" {
		t.Fatalf("subscription after topic delete: %d %s", r.status, r.body)
	}
}

func TestListsAreBareArrays(t *testing.T) {
	e := newEnv(t, broker.Config{})
	if r := e.do("GET", "/topics"+q, ""); r.status != 200 || r.body != "[]" {
		t.Fatalf("empty list: %d %s", r.status, r.body)
	}
	e.mustTopic("b", "EventGridSchema")
	e.mustTopic("a", "CustomEventSchema")
	var topics []struct{ Name string }
	r := e.do("GET", "/topics"+q, "")
	if err := json.Unmarshal([]byte(r.body), &topics); err != nil || len(topics) != 2 || topics[0].Name != "a" {
		t.Fatalf("list: %s", r.body)
	}
	e.mustSub("a", "s1", "http://127.0.0.1:1/x")
	for _, path := range []string{"/topics/a/eventSubscriptions" + q, "/topics/a/eventSubscriptions/" + q, "/TOPICS/a/EventSubscriptions" + q} {
		var subs []map[string]any
		r := e.do("GET", path, "")
		if err := json.Unmarshal([]byte(r.body), &subs); err != nil || len(subs) != 1 {
			t.Fatalf("%s: %d %s", path, r.status, r.body)
		}
	}
}

func TestSDKSingleEventRoute(t *testing.T) {
	e := newEnv(t, broker.Config{})
	hook := testenv.NewWebhook(t)
	e.mustTopic("egtopic", "EventGridSchema")
	e.mustSub("egtopic", "s", hook.URL)
	r := e.do("POST", "/topics/egtopic/events/9b2d"+q,
		`{"Id":"9b2d","Topic":"egtopic","Subject":"sensor:42","EventType":"sensor.temperature","DataVersion":"1.0","EventTime":"2019-10-01T21:35:17Z","Data":{"t":21}}`,
		"Content-Type", "application/json; charset=utf-8")
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	reqs := hook.WaitCount(t, 1, 2*time.Second)
	if !strings.Contains(string(reqs[0].Body), `"eventType":"sensor.temperature"`) {
		t.Fatalf("delivered %s", reqs[0].Body)
	}
}

func TestCloudEventsPublishModes(t *testing.T) {
	e := newEnv(t, broker.Config{})
	hook := testenv.NewWebhook(t)
	e.mustTopic("ce", "CloudEventSchemaV1_0")
	e.mustSub("ce", "s", hook.URL)
	ev := `{"id":"1807","type":"recordInserted","source":"myapp/vehicles/motorcycles","time":"2017-08-10T21:03:07+00:00","datacontenttype":"application/json","data":{"make":"Ducati"},"specversion":"1.0"}`
	cases := []struct {
		ct, body string
		extra    []string
	}{
		{"application/cloudevents-batch+json", "[" + ev + "]", nil},
		{"application/cloudevents+json; charset=utf-8", ev, nil},
		{"application/json", ev, nil},
		{"application/json", `{"temp":21}`, []string{"ce-specversion", "1.0", "ce-id", "b1", "ce-source", "/s", "ce-type", "t"}},
	}
	for i, c := range cases {
		h := append([]string{"Content-Type", c.ct}, c.extra...)
		if r := e.do("POST", "/topics/ce/events?api-version=2018-01-01", c.body, h...); r.status != 200 {
			t.Fatalf("case %d: %d %s", i, r.status, r.body)
		}
	}
	reqs := hook.WaitCount(t, 4, 2*time.Second)
	structured, binary := 0, 0
	for _, rq := range reqs { // delivery order is not guaranteed
		switch {
		case string(rq.Body) == "["+ev+"]":
			structured++
		case strings.Contains(string(rq.Body), `"data":{"temp":21}`) && strings.Contains(string(rq.Body), `"id":"b1"`):
			binary++
		default:
			t.Fatalf("unexpected body (CloudEvent rewritten?): %s", rq.Body)
		}
		if rq.Header.Get("Content-Type") != "application/cloudevents-batch+json; charset=utf-8" {
			t.Fatalf("content type %q", rq.Header.Get("Content-Type"))
		}
	}
	if structured != 3 || binary != 1 {
		t.Fatalf("structured=%d binary=%d", structured, binary)
	}
}

func TestCustomSchemaPassthrough(t *testing.T) {
	e := newEnv(t, broker.Config{})
	hook := testenv.NewWebhook(t)
	e.mustTopic("mycustomschematopic", "CustomSchema")
	e.mustSub("mycustomschematopic", "s", hook.URL)
	body := `[{"eventdata":{"make":"Ducati","model":"Monster"}}]`
	if r := e.do("POST", "/topics/mycustomschematopic/events"+q, body); r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if got := string(hook.WaitCount(t, 1, 2*time.Second)[0].Body); got != body {
		t.Fatalf("delivered %s", got)
	}
}

func TestHealthRoutes(t *testing.T) {
	e := newEnv(t, broker.Config{})
	if r := e.do("GET", "/api/health", ""); r.status != 200 || r.body != "OK" {
		t.Fatalf("health: %d %s", r.status, r.body)
	}
	if r := e.do("GET", "/readyz", ""); r.status != 503 {
		t.Fatalf("readyz before ready: %d", r.status)
	}
	e.api.SetReady(true)
	if r := e.do("GET", "/readyz", ""); r.status != 200 {
		t.Fatalf("readyz: %d", r.status)
	}
}
