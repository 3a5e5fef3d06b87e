package e2e

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/internal/testenv"
)

// TestPublishToWebhook: with tlsPolicy=enabled both ports answer; a topic made
// over HTTPS, a WebHook subscription to a real local HTTP server, a publish over
// HTTP, and the event arrives in the Event Grid schema.
func TestPublishToWebhook(t *testing.T) {
	t.Parallel()
	m := startModule(t)
	hook := testenv.NewWebhook(t)
	if m.HTTPSURL == "" || m.HTTPURL == "" {
		t.Fatalf("both listeners expected, got https=%q http=%q", m.HTTPSURL, m.HTTPURL)
	}
	out := m.must("PUT", m.HTTPSURL+"/topics/sampleTopic1"+q, `{"name":"sampleTopic1","properties":{"inputschema":"eventGridSchema"}}`)
	if !strings.Contains(out, `"endpoint":"`+m.HTTPSURL+`/topics/sampleTopic1/events?api-version=2019-01-01-preview"`) {
		t.Fatalf("topic %s", out)
	}
	m.must("PUT", m.HTTPSURL+"/topics/sampleTopic1/eventSubscriptions/sampleSubscription1"+q,
		`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"`+hook.URL+`/api/events"}}}}`)
	m.must("POST", m.HTTPURL+"/topics/sampleTopic1/events"+q,
		`[{"id":"eventId-func-0","eventType":"recordInserted","subject":"myapp/vehicles/motorcycles","eventTime":"2019-07-28T21:03:07+00:00","dataVersion":"1.0","data":{"make":"Ducati","model":"Monster"}}]`)
	req := hook.WaitCount(t, 1, 5*time.Second)[0]
	var got []map[string]any
	if err := json.Unmarshal(req.Body, &got); err != nil || len(got) != 1 {
		t.Fatalf("body %s", req.Body)
	}
	ev := got[0]
	if ev["topic"] != "sampleTopic1" || ev["metadataVersion"] != "1" || ev["id"] != "eventId-func-0" || ev["eventType"] != "recordInserted" {
		t.Fatalf("event %v", ev)
	}
	if req.Header.Get("aeg-event-type") != "Notification" || req.Header.Get("aeg-subscription-name") != "sampleSubscription1" {
		t.Fatalf("headers %v", req.Header)
	}
}

// TestDocumentedExamples runs the original documentation's curl examples for
// custom-schema and CloudEvents topics unchanged.
func TestDocumentedExamples(t *testing.T) {
	t.Parallel()
	m := startModule(t)
	hook := testenv.NewWebhook(t)
	base := m.HTTPSURL
	m.must("PUT", base+"/topics/mycustomschematopic"+q, `{"name":"mycustomschematopic","properties":{"inputSchema":"CustomSchema"}}`)
	m.must("PUT", base+"/topics/mycustomschematopic/eventSubscriptions/s"+q,
		`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"`+hook.URL+`"}}}}`)
	m.must("POST", base+"/topics/mycustomschematopic/events"+q, `[{"eventdata":{"make":"Ducati","model":"Monster"}}]`)
	if body := string(hook.WaitCount(t, 1, 5*time.Second)[0].Body); body != `[{"eventdata":{"make":"Ducati","model":"Monster"}}]` {
		t.Fatalf("custom event delivered as %s", body)
	}
	m.must("PUT", base+"/topics/mycloudeventschematopic"+q, `{"name":"mycloudeventschematopic","properties":{"inputSchema":"CloudEventSchemaV1_0"}}`)
	m.must("PUT", base+"/topics/mycloudeventschematopic/eventSubscriptions/s"+q,
		`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"`+hook.URL+`"}}}}`)
	ce := `[{"id":"1807","type":"recordInserted","source":"myapp/vehicles/motorcycles","time":"2017-08-10T21:03:07+00:00","datacontenttype":"application/json","data":{"make":"Ducati","model":"Monster"},"specversion":"1.0"}]`
	m.must("POST", base+"/topics/mycloudeventschematopic/events"+q, ce, "Content-Type", "application/cloudevents-batch+json")
	if body := string(hook.WaitCount(t, 2, 5*time.Second)[1].Body); body != ce {
		t.Fatalf("CloudEvent delivered as %s", body)
	}
	var topics []map[string]any
	if err := json.Unmarshal([]byte(m.must("GET", base+"/topics"+q, "")), &topics); err != nil || len(topics) != 2 {
		t.Fatalf("list %v %v", topics, err)
	}
	m.must("DELETE", base+"/topics/mycustomschematopic"+q, "")
	if status, body := m.call("GET", base+"/topics/mycustomschematopic"+q, ""); status != http.StatusNotFound || !strings.Contains(body, `"code":"NotFound"`) {
		t.Fatalf("after delete: %d %s", status, body)
	}
}

// TestTLSPolicies: strict serves HTTPS only, disabled HTTP only.
func TestTLSPolicies(t *testing.T) {
	t.Parallel()
	strict := startModule(t, "inbound__serverAuth__tlsPolicy=strict")
	if strict.HTTPURL != "" || strict.HTTPSURL == "" {
		t.Fatalf("strict: https=%q http=%q", strict.HTTPSURL, strict.HTTPURL)
	}
	strict.must("GET", strict.HTTPSURL+"/topics"+q, "")
	disabled := startModule(t, "inbound:serverAuth:tlsPolicy=Disabled")
	if disabled.HTTPSURL != "" || disabled.HTTPURL == "" {
		t.Fatalf("disabled: https=%q http=%q", disabled.HTTPSURL, disabled.HTTPURL)
	}
	disabled.must("GET", disabled.HTTPURL+"/topics"+q, "")
}

// TestMetadataSurvivesRestart: definitions are restored from the metadata
// directory by a new process.
func TestMetadataSurvivesRestart(t *testing.T) {
	t.Parallel()
	hook := testenv.NewWebhook(t)
	m := startModule(t)
	m.must("PUT", m.HTTPURL+"/topics/t1"+q, `{"properties":{"inputSchema":"CustomEventSchema"}}`)
	m.must("PUT", m.HTTPURL+"/topics/t1/eventSubscriptions/s1"+q,
		`{"properties":{"retryPolicy":{"maxDeliveryAttempts":3},"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"`+hook.URL+`"}}}}`)
	m.Stop(5 * time.Second)
	again := &module{t: t, exited: make(chan struct{}), metadata: m.metadata}
	again.launch(append(m.cmd.Env[1:], "broker__metadataDbPath="+m.metadata))
	out := again.must("GET", again.HTTPURL+"/topics/t1/eventSubscriptions/s1"+q, "")
	if !strings.Contains(out, `"maxDeliveryAttempts":3`) || !strings.Contains(out, hook.URL) {
		t.Fatalf("restored subscription %s", out)
	}
	again.must("POST", again.HTTPURL+"/topics/t1/events"+q, `[{"a":1}]`)
	hook.WaitCount(t, 1, 5*time.Second)
}

// TestBadConfigStops: an invalid value stops the program with a message naming
// the variable as it was spelled.
func TestBadConfigStops(t *testing.T) {
	t.Parallel()
	cmd := command(nil, "broker__defaultMaxDeliveryAttempts=abc")
	out, err := cmd.CombinedOutput()
	if err == nil || cmd.ProcessState.ExitCode() != 1 || !strings.Contains(string(out), "broker__defaultMaxDeliveryAttempts") {
		t.Fatalf("exit %v, output %s", err, out)
	}
}
