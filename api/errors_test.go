package api_test

import (
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

// TestErrors: every failure gets the documented error body, the right status
// and detailed code, and changes nothing.
func TestErrors(t *testing.T) {
	e := newEnv(t, broker.Config{MaxBufferedBytes: 4096})
	hook := testenv.NewWebhook(t)
	hook.Hang()
	e.mustTopic("t", "EventGridSchema")
	e.mustTopic("c", "CustomEventSchema")
	e.mustTopic("ce", "CloudEventSchemaV1_0")
	e.mustSub("t", "s", hook.URL)
	good := `[{"id":"1","subject":"s","eventType":"t","eventTime":"x","dataVersion":"1"}]`
	big := `[{"id":"1","subject":"s","eventType":"t","eventTime":"x","dataVersion":"1","data":"` + strings.Repeat("x", 1<<20) + `"}]`
	tests := map[string]struct {
		method, path, body string
		headers            []string
		status             int
		code, detail       string
	}{
		"missing api-version":       {"GET", "/topics", "", nil, 400, "BadRequest", "MissingApiVersionParameter"},
		"unknown api-version":       {"GET", "/topics?api-version=2019-01-01", "", nil, 400, "BadRequest", "InvalidApiVersionParameter"},
		"cloud version on mgmt":     {"GET", "/topics?api-version=2018-01-01", "", nil, 400, "BadRequest", "InvalidApiVersionParameter"},
		"unknown route":             {"GET", "/queues" + q, "", nil, 404, "NotFound", "NotFound"},
		"method not allowed":        {"POST", "/topics/t" + q, "{}", nil, 405, "MethodNotAllowed", "MethodNotAllowed"},
		"get missing topic":         {"GET", "/topics/nope" + q, "", nil, 404, "NotFound", "TopicNotFound"},
		"delete missing topic":      {"DELETE", "/topics/nope" + q, "", nil, 404, "NotFound", "TopicNotFound"},
		"get missing subscription":  {"GET", "/topics/t/eventSubscriptions/nope" + q, "", nil, 404, "NotFound", "EventSubscriptionNotFound"},
		"sub on missing topic":      {"PUT", "/topics/nope/eventSubscriptions/s" + q, `{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"http://x"}}}}`, nil, 404, "NotFound", "TopicNotFound"},
		"publish to missing topic":  {"POST", "/topics/nope/events" + q, good, nil, 404, "NotFound", "TopicNotFound"},
		"bad topic name":            {"PUT", "/topics/a%20b" + q, `{}`, nil, 400, "BadRequest", "InvalidName"},
		"topic name mismatch":       {"PUT", "/topics/a" + q, `{"name":"b"}`, nil, 400, "BadRequest", "InvalidName"},
		"broken topic JSON":         {"PUT", "/topics/a" + q, `{"name":`, nil, 400, "BadRequest", "InvalidRequestBody"},
		"schema change":             {"PUT", "/topics/t" + q, `{"properties":{"inputSchema":"CustomEventSchema"}}`, nil, 400, "BadRequest", "InvalidInputSchema"},
		"topic wrong media type":    {"PUT", "/topics/a" + q, `{}`, []string{"Content-Type", "text/plain"}, 415, "UnsupportedMediaType", "UnsupportedMediaType"},
		"sub bad destination":       {"PUT", "/topics/t/eventSubscriptions/s2" + q, `{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"nope"}}}}`, nil, 400, "BadRequest", "InvalidDestination"},
		"sub schema mismatch":       {"PUT", "/topics/t/eventSubscriptions/s2" + q, `{"properties":{"eventDeliverySchema":"CustomEventSchema","destination":{"endpointType":"WebHook","properties":{"endpointUrl":"http://x"}}}}`, nil, 400, "BadRequest", "InvalidEventDeliverySchema"},
		"sub batch limit":           {"PUT", "/topics/t/eventSubscriptions/s2" + q, `{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"http://x","maxEventsPerBatch":51}}}}`, nil, 400, "BadRequest", "InvalidDestination"},
		"sub bad filter":            {"PUT", "/topics/t/eventSubscriptions/s2" + q, `{"properties":{"filter":{"advancedFilters":[{"operatorType":"NumberIn","key":"data.a","values":["x"]}]},"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"http://x"}}}}`, nil, 400, "BadRequest", "InvalidFilter"},
		"publish broken JSON":       {"POST", "/topics/t/events" + q, `[{"id":`, nil, 400, "BadRequest", "InvalidJson"},
		"publish object to EG":      {"POST", "/topics/t/events" + q, `{"id":"1","subject":"s","eventType":"t","eventTime":"x","dataVersion":"1"}`, nil, 400, "BadRequest", "InvalidEvent"},
		"publish missing subject":   {"POST", "/topics/t/events" + q, `[{"id":"1","eventType":"t","eventTime":"x","dataVersion":"1"}]`, nil, 400, "BadRequest", "InvalidEvent"},
		"publish wrong topic":       {"POST", "/topics/t/events" + q, `[{"id":"1","topic":"otherTopic","subject":"s","eventType":"t","eventTime":"x","dataVersion":"1"}]`, nil, 400, "BadRequest", "InvalidEvent"},
		"publish metadataVersion 2": {"POST", "/topics/t/events" + q, `[{"id":"1","metadataVersion":"2","subject":"s","eventType":"t","eventTime":"x","dataVersion":"1"}]`, nil, 400, "BadRequest", "InvalidEvent"},
		"custom element not object": {"POST", "/topics/c/events" + q, `[{"a":1},2]`, nil, 400, "BadRequest", "InvalidEvent"},
		"custom not array":          {"POST", "/topics/c/events" + q, `{"a":1}`, nil, 400, "BadRequest", "InvalidEvent"},
		"CE missing source":         {"POST", "/topics/ce/events" + q, `{"id":"1","type":"t","specversion":"1.0"}`, []string{"Content-Type", "application/cloudevents+json"}, 400, "BadRequest", "InvalidEvent"},
		"CE wrong media type":       {"POST", "/topics/ce/events" + q, `x`, []string{"Content-Type", "text/plain"}, 415, "UnsupportedMediaType", "UnsupportedMediaType"},
		"CE type on EG topic":       {"POST", "/topics/t/events" + q, good, []string{"Content-Type", "application/cloudevents-batch+json"}, 415, "UnsupportedMediaType", "UnsupportedMediaType"},
		"publish XML":               {"POST", "/topics/t/events" + q, `<x/>`, []string{"Content-Type", "application/xml"}, 415, "UnsupportedMediaType", "UnsupportedMediaType"},
		"body too large":            {"POST", "/topics/t/events" + q, big, nil, 413, "RequestEntityTooLarge", "PayloadTooLarge"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			r := e.do(tc.method, tc.path, tc.body, tc.headers...)
			code, detail, msg := errorOf(t, r)
			if r.status != tc.status || code != tc.code || detail != tc.detail || msg == "" {
				t.Fatalf("got %d %s/%s %q, want %d %s/%s", r.status, code, detail, msg, tc.status, tc.code, tc.detail)
			}
			if ct := r.header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Fatalf("content type %q", ct)
			}
		})
	}
	// Nothing above changed state: still three topics, one subscription, no events.
	if topics := e.b.Topics(); len(topics) != 3 {
		t.Fatalf("topics changed: %+v", topics)
	}
	if subs, _ := e.b.Subscriptions("t"); len(subs) != 1 {
		t.Fatalf("subscriptions changed: %+v", subs)
	}
	if hook.Count() != 0 {
		t.Fatalf("a rejected request delivered events")
	}
	st, _ := e.b.TopicStats("t")
	if st.UserErrorRequests.Load() == 0 || st.SuccessRequests.Load() != 0 {
		t.Fatalf("topic stats user=%d ok=%d", st.UserErrorRequests.Load(), st.SuccessRequests.Load())
	}
}

// TestBusyAnswers503: beyond the buffer cap publish gets 503 with Retry-After and
// accepted events are still delivered afterwards.
func TestBusyAnswers503(t *testing.T) {
	e := newEnv(t, broker.Config{MaxBufferedBytes: 2048})
	hook := testenv.NewWebhook(t)
	hook.Hang()
	e.mustTopic("t", "EventGridSchema")
	e.mustSub("t", "s", hook.URL)
	ev := `[{"id":"1","subject":"s","eventType":"t","eventTime":"x","dataVersion":"1","data":"` + strings.Repeat("d", 300) + `"}]`
	accepted := 0
	var last response
	for i := 0; i < 20; i++ {
		last = e.do("POST", "/topics/t/events"+q, ev)
		if last.status != 200 {
			break
		}
		accepted++
	}
	code, detail, _ := errorOf(t, last)
	if last.status != 503 || code != "ServiceUnavailable" || detail != "ServerBusy" || last.header.Get("Retry-After") == "" {
		t.Fatalf("over the cap: %d %s", last.status, last.body)
	}
	hook.Script(200)
	hook.Unhang()
	testenv.Eventually(t, 3*time.Second, "accepted events delivered", func() bool {
		st, _ := e.b.SubscriptionStatus("t", "s")
		return st.Stats.Delivered.Load() == int64(accepted)
	})
	if accepted == 0 {
		t.Fatal("nothing was accepted before the cap")
	}
}

// TestValidationHandshakeOnPut: an opted-in webhook that does not answer the
// validation event is refused and nothing is created.
func TestValidationHandshakeOnPut(t *testing.T) {
	e := newEnv(t, broker.Config{})
	e.mustTopic("t", "EventGridSchema")
	hook := testenv.NewWebhook(t) // answers 200 without the validation code
	r := e.do("PUT", "/topics/t/eventSubscriptions/s"+q,
		`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"`+hook.URL+`","validationHandshake":true}}}}`)
	_, detail, msg := errorOf(t, r)
	if r.status != 400 || detail != "InvalidDestination" || !strings.Contains(msg, "validation handshake") {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if hook.Count() != 1 || hook.Requests()[0].Header.Get("aeg-event-type") != "SubscriptionValidation" {
		t.Fatalf("the subscriber did not get a validation event: %d requests", hook.Count())
	}
	if subs, _ := e.b.Subscriptions("t"); len(subs) != 0 {
		t.Fatalf("a subscription was created: %+v", subs)
	}
	e.mustSub("t", "plain", hook.URL) // without the opt-in no handshake happens
	if hook.Count() != 1 {
		t.Fatal("a handshake ran without the opt-in")
	}
}
