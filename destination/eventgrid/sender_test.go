package eventgrid_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/messaging"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/destination/eventgrid"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

// TestTheSDKParsesWhatWeSend: the Azure SDK for Go's own types decode the
// bodies the cloud double accepted, with every field intact.
func TestTheSDKParsesWhatWeSend(t *testing.T) {
	t.Run("EventGridSchema", func(t *testing.T) {
		r := newRig(t, testenv.CloudOptions{Key: "K"}, eventgrid.Options{})
		s := r.sender(t, func(ep *destination.Endpoint) { ep.SASKey, ep.TopicName = "K", ptr("domainTopic1") })
		evs := parse(t, eventschema.EventGrid, `[{"id":"e1","subject":"myapp/vehicles/motorcycles","eventType":"recordInserted","eventTime":"2019-07-28T21:03:07+00:00","dataVersion":"1.0","data":{"make":"Ducati","model":"Monster"}},
			{"id":"e2","subject":"s2","eventType":"t2","eventTime":"2019-07-28T21:03:08.5Z","dataVersion":"2.0"}]`)
		if res := deliver(s, eventschema.EventGrid, evs); res.Outcome != destination.Delivered {
			t.Fatalf("result %+v", res)
		}
		req := r.cloud.Accepted()[0]
		if ct := req.Header.Get("Content-Type"); ct != "application/json" {
			t.Fatalf("content type %q", ct)
		}
		var got []azeventgrid.Event
		if err := json.Unmarshal(req.Body, &got); err != nil || len(got) != 2 {
			t.Fatalf("SDK decode: %v (%s)", err, req.Body)
		}
		e := got[0]
		if *e.ID != "e1" || *e.Subject != "myapp/vehicles/motorcycles" || *e.EventType != "recordInserted" || *e.DataVersion != "1.0" ||
			*e.Topic != "domainTopic1" || *e.MetadataVersion != "1" || e.EventTime.UTC().Format("2006-01-02T15:04:05Z") != "2019-07-28T21:03:07Z" ||
			e.Data.(map[string]any)["model"] != "Monster" {
			t.Fatalf("decoded %+v", e)
		}
		if got[1].Data != nil || got[1].EventTime.Nanosecond() != 500_000_000 {
			t.Fatalf("second event %+v", got[1])
		}
	})
	t.Run("CloudEventSchemaV1_0", func(t *testing.T) {
		r := newRig(t, testenv.CloudOptions{Key: "K", Schema: testenv.CloudCloudEventsSchema}, eventgrid.Options{})
		s := r.sender(t, withKey("K"))
		evs := parse(t, eventschema.CloudEvents, `[{"specversion":"1.0","id":"c1","source":"/edge/sensors","type":"temp.read","time":"2026-03-01T10:00:00Z","subject":"room1","datacontenttype":"application/json","data":{"celsius":21.5},"ext1":"x"}]`)
		if res := deliver(s, eventschema.CloudEvents, evs); res.Outcome != destination.Delivered {
			t.Fatalf("result %+v", res)
		}
		req := r.cloud.Accepted()[0]
		if ct := req.Header.Get("Content-Type"); ct != "application/cloudevents-batch+json; charset=utf-8" {
			t.Fatalf("content type %q", ct)
		}
		var got []messaging.CloudEvent
		if err := json.Unmarshal(req.Body, &got); err != nil || len(got) != 1 {
			t.Fatalf("SDK decode: %v (%s)", err, req.Body)
		}
		c := got[0]
		if c.ID != "c1" || c.Source != "/edge/sensors" || c.Type != "temp.read" || c.SpecVersion != "1.0" || *c.Subject != "room1" ||
			*c.DataContentType != "application/json" || c.Extensions["ext1"] != "x" || string(c.Data.([]byte)) != `{"celsius":21.5}` {
			t.Fatalf("decoded %+v", c)
		}
	})
	t.Run("CustomEventSchema verbatim", func(t *testing.T) {
		r := newRig(t, testenv.CloudOptions{Key: "K", Schema: testenv.CloudCustomSchema}, eventgrid.Options{})
		s := r.sender(t, func(ep *destination.Endpoint) { ep.SASKey, ep.TopicName = "K", ptr("ignored") })
		body := `[{"eventdata":{"make":"Ducati","model":"Monster"}},{"topic":"kept","n":[1,2]}]`
		if res := deliver(s, eventschema.Custom, parse(t, eventschema.Custom, body)); res.Outcome != destination.Delivered {
			t.Fatalf("result %+v", res)
		}
		if got := string(r.cloud.Accepted()[0].Body); got != body {
			t.Fatalf("custom events changed: %s", got)
		}
	})
}

// TestSplitsAtOneMegabyte: a delivery larger than the cloud's request limit
// goes in several requests, each accepted by the double (which enforces the
// limit), with every event once and in order.
func TestSplitsAtOneMegabyte(t *testing.T) {
	r := newRig(t, testenv.CloudOptions{Key: "K"}, eventgrid.Options{})
	s := r.sender(t, withKey("K"))
	evs := egEvents(t, 7, 300_000) // 7 × ~300 KB: three requests
	if res := deliver(s, eventschema.EventGrid, evs); res.Outcome != destination.Delivered || len(res.Refused) != 0 {
		t.Fatalf("result %+v", res)
	}
	reqs := r.cloud.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	for _, q := range reqs {
		if q.Status != 200 || len(q.Body) > eventgrid.MaxRequestBytes {
			t.Fatalf("request of %d bytes answered %d %s", len(q.Body), q.Status, q.Reason)
		}
	}
	assertIDs(t, r.cloud.Events(), 0, 7)
}

// TestSplitDeliveryIsAllOrNone: when a later request fails, the delivery's
// result is that failure, so the broker retries all of it.
func TestSplitDeliveryIsAllOrNone(t *testing.T) {
	r := newRig(t, testenv.CloudOptions{Key: "K"}, eventgrid.Options{})
	s := r.sender(t, withKey("K"))
	evs := egEvents(t, 4, 400_000) // two requests
	r.cloud.Script(200, 503)
	res := deliver(s, eventschema.EventGrid, evs)
	if res.Outcome != destination.Retry || res.Status != 503 || res.Reason != "Busy" {
		t.Fatalf("result %+v", res)
	}
	if res = deliver(s, eventschema.EventGrid, evs); res.Outcome != destination.Delivered {
		t.Fatalf("retry %+v", res)
	}
	// The cloud saw the first half twice: at-least-once.
	if got := len(r.cloud.Events()); got != 6 {
		t.Fatalf("cloud accepted %d events, want 2 + 4", got)
	}
}

// TestOversizeEventsRefused: an event that cannot fit in a request is dropped
// with a clear reason and never sent; the others of its delivery still are.
func TestOversizeEventsRefused(t *testing.T) {
	r := newRig(t, testenv.CloudOptions{Key: "K"}, eventgrid.Options{})
	s := r.sender(t, withKey("K"))
	huge := egEvents(t, 1, eventgrid.MaxRequestBytes)
	res := deliver(s, eventschema.EventGrid, huge)
	if res.Outcome != destination.Drop || res.Reason != "PayloadTooLarge" || !strings.Contains(res.Err.Error(), "at most 1048574 bytes") ||
		len(res.Refused) != 1 || !strings.Contains(res.Refused[0].Detail, "at most 1048574 bytes") || len(r.cloud.Requests()) != 0 {
		t.Fatalf("alone: %+v after %d requests", res, len(r.cloud.Requests()))
	}
	mixed := append(egEvents(t, 2, 10), huge...)
	mixed[1], mixed[2] = mixed[2], mixed[1]
	res = deliver(s, eventschema.EventGrid, mixed)
	if res.Outcome != destination.Delivered || len(res.Refused) != 1 || res.Refused[0].Index != 1 || res.Refused[0].Reason != "PayloadTooLarge" {
		t.Fatalf("mixed: %+v", res)
	}
	if ev := r.cloud.Events(); len(ev) != 2 {
		t.Fatalf("cloud got %d events", len(ev))
	}
}

// TestCloudStatuses: the cloud's answers follow the delivery rules.
func TestCloudStatuses(t *testing.T) {
	tests := map[int]struct {
		outcome destination.Outcome
		reason  string
	}{
		200: {destination.Delivered, "Delivered"}, 400: {destination.Drop, "BadRequest"},
		401: {destination.Drop, "Unauthorized"}, 403: {destination.Drop, "Forbidden"}, 413: {destination.Drop, "PayloadTooLarge"},
		404: {destination.Retry, "NotFound"}, 429: {destination.Retry, "Busy"}, 500: {destination.Retry, "Internal Server Error"},
		503: {destination.Retry, "Busy"},
	}
	r := newRig(t, testenv.CloudOptions{Key: "K"}, eventgrid.Options{})
	for status, tc := range tests {
		r.cloud.Script(status)
		res := deliver(r.sender(t, withKey("K")), eventschema.EventGrid, egEvents(t, 1, 1))
		if res.Outcome != tc.outcome || res.Status != status || res.Reason != tc.reason {
			t.Errorf("%d: %+v", status, res)
		}
	}
}

func assertIDs(t *testing.T, evs []json.RawMessage, from, to int) {
	t.Helper()
	if len(evs) != to-from {
		t.Fatalf("%d events, want %d", len(evs), to-from)
	}
	for i, raw := range evs {
		var e struct{ ID string }
		_ = json.Unmarshal(raw, &e)
		if want := "ev-" + itoa(from+i); e.ID != want {
			t.Fatalf("event %d is %s, want %s", i, e.ID, want)
		}
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }
