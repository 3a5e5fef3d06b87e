package e2e

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/internal/testenv"
)

// edgeModule runs the binary as an IoT Edge module: the workload API double
// provides its identity and signs its SAS tokens, the edgeHub double is its
// edgeHub.
func edgeModule(t *testing.T, env ...string) (*module, *testenv.EdgeHub) {
	t.Helper()
	wl := testenv.NewWorkload(t)
	hub := testenv.NewEdgeHub(t, wl)
	return startEdgeModule(t, hub, env...), hub
}

func startEdgeModule(t *testing.T, hub *testenv.EdgeHub, env ...string) *module {
	t.Helper()
	m := startModule(t, append(append(hub.WL.Env(), hub.Env()...), env...)...)
	testenv.Eventually(t, 15*time.Second, "module connected to edgeHub", hub.Connected)
	return m
}

// TestEdgeHubOutput is forward-events-iothub.md: an event published over
// HTTP to a topic with an edgeHub subscription becomes a message on the
// module output named by outputName ($.on), which an edgeHub route
// "FROM /messages/modules/eventgridmodule/outputs/sampleSub4 INTO $upstream" selects.
func TestEdgeHubOutput(t *testing.T) {
	t.Parallel()
	m, hub := edgeModule(t)
	m.must("PUT", m.HTTPSURL+"/topics/sampleTopic4"+q, `{"name":"sampleTopic4","properties":{"inputschema":"eventGridSchema"}}`)
	m.must("PUT", m.HTTPSURL+"/topics/sampleTopic4/eventSubscriptions/sampleSubscription4"+q,
		`{"properties":{"destination":{"endpointType":"edgeHub","properties":{"outputName":"sampleSub4"}}}}`)
	m.must("POST", m.HTTPSURL+"/topics/sampleTopic4/events"+q,
		`[{"id":"eventId-iothub-1","eventType":"recordInserted","subject":"myapp/vehicles/motorcycles","eventTime":"2019-07-28T21:03:07+00:00","dataVersion":"1.0","data":{"make":"Ducati","model":"Monster"}}]`)
	out := hub.WaitOutputs(t, 1, 10*time.Second)[0]
	if out.Properties["$.on"] != "sampleSub4" || out.Properties["$.ct"] != "application/json" || out.Properties["$.ce"] != "utf-8" {
		t.Fatalf("output topic %s", out.Topic)
	}
	var evs []map[string]any
	if err := json.Unmarshal(out.Payload, &evs); err != nil || len(evs) != 1 || evs[0]["id"] != "eventId-iothub-1" || evs[0]["topic"] != "sampleTopic4" {
		t.Fatalf("payload %s", out.Payload)
	}
	if d := hub.Denied(); len(d) > 0 {
		t.Fatalf("edgeHub would refuse %q", d)
	}
	m.Stop(5 * time.Second)
	if m.ExitCode() != 0 {
		t.Fatalf("exit code %d", m.ExitCode())
	}
}

// TestEdgeHubInput: a message edgeHub routes to a module input becomes an
// event on the mapped topic and reaches its webhook subscriber; a message on
// an input whose topic does not exist is acknowledged and logged.
func TestEdgeHubInput(t *testing.T) {
	t.Parallel()
	hook := testenv.NewWebhook(t)
	m, hub := edgeModule(t, "edgeHub__inputRoutes=sensorInput=telemetry")
	m.must("PUT", m.HTTPURL+"/topics/telemetry"+q, `{}`)
	m.must("PUT", m.HTTPURL+"/topics/telemetry/eventSubscriptions/hook"+q,
		`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"`+hook.URL+`"}}}}`)
	ev := `{"id":"in-1","eventType":"reading","subject":"sensor/1","eventTime":"2019-07-28T21:03:07+00:00","dataVersion":"1.0","data":{"t":21.5}}`
	if err := hub.SendInput("sensorInput", []byte(ev)); err != nil {
		t.Fatal(err)
	}
	if err := hub.SendInput("unmapped", []byte(ev)); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	body := hook.WaitCount(t, 1, 10*time.Second)[0].Body
	if err := json.Unmarshal(body, &got); err != nil || got[0]["id"] != "in-1" || got[0]["topic"] != "telemetry" {
		t.Fatalf("delivered %s", body)
	}
	testenv.Eventually(t, 10*time.Second, "both inputs acknowledged", func() bool { return hub.AckedInputs() == 2 })
	testenv.Eventually(t, 5*time.Second, "the dropped input logged", func() bool {
		return len(m.LogLines("edgeHub input message dropped (acknowledged, not published); logged once a minute per cause")) == 1
	})
}

// TestEdgeHubTwin is twin-json.md: the documented desired properties (the
// webhook pointed at a local subscriber) create the topics and subscriptions,
// visible through the REST API and working; the reported properties list
// them and the refused subscription's error; a topic set to null is deleted.
func TestEdgeHubTwin(t *testing.T) {
	t.Parallel()
	hook := testenv.NewWebhook(t)
	wl := testenv.NewWorkload(t)
	hub := testenv.NewEdgeHub(t, wl)
	hub.SetDesired(t, twinDesired(hook.URL))
	m := startEdgeModule(t, hub)
	testenv.Eventually(t, 10*time.Second, "twin topics created", func() bool {
		status, _ := m.call("GET", m.HTTPURL+"/topics/twinTopic2/eventSubscriptions/twinTopic2EdgeHubSub"+q, "")
		return status == http.StatusOK
	})
	topic := m.must("GET", m.HTTPURL+"/topics/twinTopic2"+q, "")
	if !strings.Contains(topic, `"inputSchema":"CustomEventSchema"`) {
		t.Fatalf("twinTopic2 %s", topic)
	}
	sub := m.must("GET", m.HTTPURL+"/topics/twinTopic1/eventSubscriptions/twinTopic1WebhookSub"+q, "")
	for _, want := range []string{`"includedEventTypes":["et1","et2"]`, `"maxDeliveryAttempts":30`, hook.URL} {
		if !strings.Contains(sub, want) {
			t.Fatalf("twinTopic1WebhookSub lacks %s: %s", want, sub)
		}
	}
	m.must("POST", m.HTTPURL+"/topics/twinTopic1/events"+q,
		`[{"id":"tw-1","eventType":"et1","subject":"^anything$","eventTime":"2019-07-28T21:03:07+00:00","dataVersion":"1.0","data":{"b":true,"s":"abc"}}]`)
	hook.WaitCount(t, 1, 10*time.Second)

	testenv.Eventually(t, 10*time.Second, "errors reported", func() bool {
		errs, _ := hub.Reported()["errors"].(map[string]any)
		subs, _ := errs["eventSubscriptions"].(map[string]any)
		s, _ := subs["twinTopic1EventGridUserTopicSub"].(string)
		return strings.HasPrefix(s, "HttpStatusCode='BadRequest' ErrorCode='InvalidDestination' Message='EventSubscription.Properties.Destination failed validation. Reason: EndpointUrl must target the /api/events API")
	})
	if topics, _ := hub.Reported()["topics"].(map[string]any); topics["twinTopic1"] == nil || topics["twinTopic2"] == nil {
		t.Fatalf("reported topics %v", topics)
	}

	hub.PatchDesired(t, `{"topics":{"twinTopic2":null}}`)
	testenv.Eventually(t, 10*time.Second, "twinTopic2 deleted", func() bool {
		status, _ := m.call("GET", m.HTTPURL+"/topics/twinTopic2"+q, "")
		return status == http.StatusNotFound
	})
}

// twinDesired is twin-json.md's example with the WebHook at hookURL and one
// EventGrid subscription the original refused.
func twinDesired(hookURL string) string {
	return `{
  "topics": {"twinTopic1": {}, "twinTopic2": {"inputSchema": "customEventSchema"}},
  "eventSubscriptions": {
    "twinTopic1WebhookSub": {
      "topic": "twinTopic1",
      "retryPolicy": {"eventExpiryInMinutes": 120, "maxDeliveryAttempts": 30},
      "destination": {"endpointType": "WebHook", "properties": {"endpointUrl": "` + hookURL + `"}},
      "filter": {"subjectBeginsWith": "^", "subjectEndsWith": "$", "isSubjectCaseSensitive": false,
        "includedEventTypes": "[\"et1\",\"et2\"]",
        "advancedFilters": "[{\"value\":true,\"operatorType\":\"BoolEquals\",\"key\":\"data.b\"},{\"values\":[\"\\\"\",\"c\"],    \"operatorType\":\"StringContains\",\"key\":\"data.s\"}]"}
    },
    "twinTopic2EdgeHubSub": {
      "topic": "twinTopic2",
      "deliveryPolicy": {"approxBatchSizeInBytes": 200000, "maxEventsPerBatch": 25},
      "destination": {"endpointType": "EdgeHub", "properties": {"outputName": "twinTopic2EdgeHubSub"}},
      "filter": {"advancedFilters": "[{\"value\":true,\"operatorType\":\"BoolEquals\",\"key\":\"dAt\\\"A.a\"},{\"values\":[\"\\\"\",    \"c\"],\"operatorType\":\"StringContains\",\"key\":\"dAt\\\"A.a\"}]"}
    },
    "twinTopic1EventGridUserTopicSub": {
      "topic": "twinTopic1",
      "destination": {"endpointType": "EventGrid", "properties": {"endpointUrl": "https://t.westus2-1.eventgrid.azure.net/api/other?api-version=2018-01-01", "sasKey": "k"}}
    }
  }
}`
}

// TestEdgeHubAway: with edgeHub unreachable the module starts, serves the REST
// API and delivers to webhooks as usual, logs the connection problem once,
// and connects as soon as edgeHub is up.
func TestEdgeHubAway(t *testing.T) {
	t.Parallel()
	hook := testenv.NewWebhook(t)
	hub := testenv.NewEdgeHub(t, testenv.NewWorkload(t))
	hub.Stop()
	m := startModule(t, append(hub.WL.Env(), hub.Env()...)...)
	m.must("PUT", m.HTTPURL+"/topics/t"+q, `{}`)
	m.must("PUT", m.HTTPURL+"/topics/t/eventSubscriptions/hook"+q,
		`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"`+hook.URL+`"}}}}`)
	m.must("PUT", m.HTTPURL+"/topics/t/eventSubscriptions/out"+q,
		`{"properties":{"destination":{"endpointType":"EdgeHub","properties":{"outputName":"out"}}}}`)
	m.must("POST", m.HTTPURL+"/topics/t/events"+q, `[{"id":"1","eventType":"t","subject":"s","eventTime":"2019-07-28T21:03:07+00:00","dataVersion":"1"}]`)
	hook.WaitCount(t, 1, 10*time.Second)
	msg := "cannot connect to edgeHub yet; retrying (HTTP ingest and other deliveries are unaffected)"
	testenv.Eventually(t, 10*time.Second, "connection problem logged", func() bool { return len(m.LogLines(msg)) > 0 })
	if err := hub.Start(); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 20*time.Second, "connected once edgeHub is up", hub.Connected)
	if n := len(m.LogLines(msg)); n != 1 {
		t.Fatalf("the connection problem was logged %d times; once a minute is the rule", n)
	}
}

// TestEdgeHubDroppedMidStream: edgeHub restarts (dropping the module's
// connection) while inputs flow in and outputs flow out. Every input the
// module acknowledged becomes an event; every event published for an output
// while edgeHub was away is delivered after it returns (through the 1-minute
// retry). Takes about a minute, so -short skips it.
func TestEdgeHubDroppedMidStream(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the real 1-minute retry; run without -short")
	}
	t.Parallel()
	hook := testenv.NewWebhook(t)
	m, hub := edgeModule(t)
	m.must("PUT", m.HTTPURL+"/topics/in"+q, `{}`)
	m.must("PUT", m.HTTPURL+"/topics/in/eventSubscriptions/hook"+q,
		`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"`+hook.URL+`"}}}}`)
	m.must("PUT", m.HTTPURL+"/topics/out"+q, `{}`)
	m.must("PUT", m.HTTPURL+"/topics/out/eventSubscriptions/o"+q,
		`{"properties":{"destination":{"endpointType":"EdgeHub","properties":{"outputName":"o"}}}}`)
	ev := func(id string) string {
		return `[{"id":"` + id + `","eventType":"t","subject":"s","eventTime":"2019-07-28T21:03:07+00:00","dataVersion":"1"}]`
	}
	sent := 0
	for i := 0; i < 200; i++ {
		if i == 100 {
			hub.Stop()
			for j := 0; j < 20; j++ { // outputs published while edgeHub is away
				m.must("POST", m.HTTPURL+"/topics/out/events"+q, ev("away-"+strconv.Itoa(j)))
			}
			if err := hub.Start(); err != nil {
				t.Fatal(err)
			}
			testenv.Eventually(t, 20*time.Second, "reconnected", hub.Connected)
		}
		if err := hub.SendInput("in", []byte(ev("in-"+strconv.Itoa(i)))); err == nil {
			sent++
		}
	}
	for j := 0; j < 20; j++ {
		m.must("POST", m.HTTPURL+"/topics/out/events"+q, ev("back-"+strconv.Itoa(j)))
	}
	acked := hub.AckedInputs()
	testenv.Eventually(t, 30*time.Second, "every acknowledged input delivered", func() bool { return len(ids(t, hook.Requests())) >= acked })
	testenv.Eventually(t, 90*time.Second, "all 40 outputs after the 1-minute retry", func() bool {
		seen := map[string]bool{}
		for _, o := range hub.Outputs() {
			var evs []struct{ ID string }
			_ = json.Unmarshal(o.Payload, &evs)
			for _, e := range evs {
				seen[e.ID] = true
			}
		}
		return len(seen) == 40
	})
	report(t, "edgeHub restarted after 100 of 200 inputs: %d sent, %d acknowledged by the module, %d distinct events delivered; 40/40 outputs delivered (20 published while edgeHub was away)",
		sent, acked, len(ids(t, hook.Requests())))
}
