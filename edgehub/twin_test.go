package edgehub_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

// twinDoc is the documented desired-properties example (twin-json.md), with
// the webhook pointed at a local subscriber, plus an EventGrid subscription
// whose endpoint the original refused with the documented error.
func twinDoc(hookURL string) string {
	return `{
  "topics": {"twinTopic1": {}, "twinTopic2": {"inputSchema": "customEventSchema"}},
  "eventSubscriptions": {
    "twinTopic1WebhookSub": {
      "topic": "twinTopic1",
      "retryPolicy": {"eventExpiryInMinutes": 120, "maxDeliveryAttempts": 30},
      "destination": {"endpointType": "WebHook", "properties": {"endpointUrl": "` + hookURL + `"}},
      "filter": {
        "subjectBeginsWith": "^", "subjectEndsWith": "$", "isSubjectCaseSensitive": false,
        "includedEventTypes": "[\"et1\",\"et2\"]",
        "advancedFilters": "[{\"value\":true,\"operatorType\":\"BoolEquals\",\"key\":\"data.b\"},{\"values\":[\"\\\"\",\"c\"],    \"operatorType\":\"StringContains\",\"key\":\"data.s\"}]"
      }
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

// path walks a reported document.
func path(doc map[string]any, keys ...string) any {
	var v any = doc
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// TestTwinDesiredApplied: the documented desired properties create the topics
// and subscriptions; the reported properties list them in the same shape
// (arrays as JSON strings) and the refused subscription's error in the
// documented form.
func TestTwinDesiredApplied(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noStart: true})
	e.hub.SetDesired(t, twinDoc("http://127.0.0.1:9/hook"))
	e.start(t)
	testenv.Eventually(t, 10*time.Second, "reported properties", func() bool {
		return path(e.hub.Reported(), "eventSubscriptions", "twinTopic2EdgeHubSub") != nil
	})
	if tc, err := e.b.Topic("twinTopic2"); err != nil || tc.Schema.String() != "CustomEventSchema" {
		t.Fatalf("twinTopic2: %+v %v", tc, err)
	}
	sub, err := e.b.Subscription("twinTopic1", "twinTopic1WebhookSub")
	if err != nil || sub.Filter == nil || len(sub.Filter.IncludedEventTypes) != 2 || len(sub.Filter.AdvancedFilters) != 2 ||
		*sub.RetryPolicy.MaxDeliveryAttempts != 30 {
		t.Fatalf("webhook subscription %+v %v", sub, err)
	}
	rep := e.hub.Reported()
	checks := map[string]any{
		"topics.twinTopic1.inputSchema":                                             "EventGridSchema",
		"topics.twinTopic2.inputSchema":                                             "CustomEventSchema",
		"eventSubscriptions.twinTopic1WebhookSub.topic":                             "twinTopic1",
		"eventSubscriptions.twinTopic1WebhookSub.filter.includedEventTypes":         `["et1","et2"]`,
		"eventSubscriptions.twinTopic1WebhookSub.destination.endpointType":          "WebHook",
		"eventSubscriptions.twinTopic2EdgeHubSub.destination.properties.outputName": "twinTopic2EdgeHubSub",
		"errors.bootupMessage":                                                      "",
		"errors.bootupException":                                                    "",
		"errors.eventSubscriptions.twinTopic1EventGridUserTopicSub": "HttpStatusCode='BadRequest' ErrorCode='InvalidDestination' " +
			"Message='EventSubscription.Properties.Destination failed validation. Reason: EndpointUrl must target the /api/events API of Azure Event Grid in the cloud.'",
	}
	for p, want := range checks {
		if got := path(rep, strings.Split(p, ".")...); got != want {
			t.Errorf("reported %s = %#v, want %#v", p, got, want)
		}
	}
	af, _ := path(rep, "eventSubscriptions", "twinTopic1WebhookSub", "filter", "advancedFilters").(string)
	var filters []map[string]any
	if err := json.Unmarshal([]byte(af), &filters); err != nil || len(filters) != 2 || filters[0]["operatorType"] != "BoolEquals" ||
		jsonString(filters[1]["values"]) != `["\"","c"]` {
		t.Errorf("advancedFilters reported as %q", af)
	}
	if path(rep, "eventSubscriptions", "twinTopic1WebhookSub", "topicName") != nil {
		t.Error("topicName must not be reported (the twin's shape names the topic as topic)")
	}
	e.noDenials(t)
}

// TestTwinPatches: a topic set to null is deleted (with its subscriptions);
// a subscription set to null is not (unsupported, as documented); a changed
// subscription is updated; and errors clear once fixed.
func TestTwinPatches(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noStart: true})
	e.hub.SetDesired(t, twinDoc("http://127.0.0.1:9/hook"))
	e.start(t)
	testenv.Eventually(t, 10*time.Second, "applied", func() bool { _, err := e.b.Topic("twinTopic2"); return err == nil })

	e.hub.PatchDesired(t, `{"topics": {"twinTopic2": null}, "eventSubscriptions": {"twinTopic1WebhookSub": null}}`)
	testenv.Eventually(t, 10*time.Second, "twinTopic2 deleted and no longer reported", func() bool {
		_, err := e.b.Topic("twinTopic2")
		return errors.Is(err, broker.ErrTopicNotFound) && path(e.hub.Reported(), "topics", "twinTopic2") == nil &&
			path(e.hub.Reported(), "eventSubscriptions", "twinTopic2EdgeHubSub") == nil
	})
	if _, err := e.b.Subscription("twinTopic1", "twinTopic1WebhookSub"); err != nil {
		t.Fatalf("a subscription set to null must stay: %v", err)
	}

	e.hub.PatchDesired(t, `{"eventSubscriptions": {"twinTopic1EventGridUserTopicSub": {"destination": {"properties": {"endpointUrl": "https://t.westus2-1.eventgrid.azure.net/api/events?api-version=2018-01-01"}}}}}`)
	testenv.Eventually(t, 10*time.Second, "fixed subscription created and its error cleared", func() bool {
		_, err := e.b.Subscription("twinTopic1", "twinTopic1EventGridUserTopicSub")
		return err == nil && path(e.hub.Reported(), "errors", "eventSubscriptions", "twinTopic1EventGridUserTopicSub") == nil
	})
	rep := e.hub.Reported()
	if path(rep, "eventSubscriptions", "twinTopic1EventGridUserTopicSub", "destination", "properties", "sasKey") != nil {
		t.Fatal("the SAS key must never be reported")
	}

	e.hub.PatchDesired(t, `{"topics": {"bad": {"inputSchema": "bogus"}}}`)
	testenv.Eventually(t, 10*time.Second, "topic error reported", func() bool {
		s, _ := path(e.hub.Reported(), "errors", "topics", "bad").(string)
		return strings.HasPrefix(s, "HttpStatusCode='BadRequest' ErrorCode='InvalidInputSchema' Message='Topic.Properties.InputSchema 'bogus'")
	})
}

// TestTwinReportsEverything: topics and subscriptions made through the REST
// API (here: directly in the broker) appear in the reported properties at the
// next refresh, without secrets.
func TestTwinReportsEverything(t *testing.T) {
	t.Parallel()
	clock := testenv.NewManualClock()
	e := newEnv(t, envOptions{clock: clock})
	e.topic(t, "restTopic")
	e.subscribe(t, "restTopic", "cloud", destination.Endpoint{Type: destination.EventGrid,
		URL: "https://t.westus2-1.eventgrid.azure.net/api/events?api-version=2018-01-01", SASKey: "secret-key"})
	clock.Advance(5 * time.Second)
	testenv.Eventually(t, 10*time.Second, "REST-made subscription reported", func() bool {
		return path(e.hub.Reported(), "eventSubscriptions", "cloud", "destination", "endpointType") == "EventGrid"
	})
	rep := e.hub.Reported()
	if path(rep, "topics", "restTopic", "inputSchema") != "EventGridSchema" {
		t.Fatalf("reported %v", rep)
	}
	if strings.Contains(jsonString(rep), "secret-key") {
		t.Fatal("a secret was reported")
	}
}

// TestTwinVersionGap: a desired patch that skips a version (one was missed)
// makes the client fetch the whole twin, so the missed change is applied too.
func TestTwinVersionGap(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	gets := e.hub.TwinGets()
	e.hub.ChangeDesired(t, `{"topics": {"missed": {}}}`)
	e.hub.PatchDesired(t, `{"topics": {"seen": {}}}`)
	testenv.Eventually(t, 10*time.Second, "both topics exist", func() bool {
		_, err1 := e.b.Topic("missed")
		_, err2 := e.b.Topic("seen")
		return err1 == nil && err2 == nil
	})
	if e.hub.TwinGets() <= gets {
		t.Fatal("the gap must be closed by a GET")
	}
}
