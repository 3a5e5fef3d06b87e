package edgehub_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/destination"
)

// TestOutputRouting: an event on a topic with an EdgeHub subscription reaches
// edgeHub as a module output message on the documented topic, with $.on
// naming the output, and as the JSON array a webhook would get.
func TestOutputRouting(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	e.topic(t, "sampleTopic4")
	e.subscribe(t, "sampleTopic4", "sampleSubscription4", destination.Endpoint{Type: destination.EdgeHub, OutputName: "sampleSub4"})
	if _, err := e.b.PublishJSON("sampleTopic4", []byte("["+event+"]"), 0); err != nil {
		t.Fatal(err)
	}
	out := e.hub.WaitOutputs(t, 1, 10*time.Second)[0]
	want := "devices/gw1/modules/eventgridmodule/messages/events/%24.on=sampleSub4&%24.ct=application%2Fjson&%24.ce=utf-8"
	if out.Topic != want {
		t.Fatalf("topic %s\nwant  %s", out.Topic, want)
	}
	if out.Properties["$.on"] != "sampleSub4" || out.Properties["$.ct"] != "application/json" || out.Properties["$.ce"] != "utf-8" {
		t.Fatalf("properties %v", out.Properties)
	}
	var evs []map[string]any
	if err := json.Unmarshal(out.Payload, &evs); err != nil || len(evs) != 1 {
		t.Fatalf("payload %s", out.Payload)
	}
	if evs[0]["id"] != "e1" || evs[0]["topic"] != "sampleTopic4" || evs[0]["metadataVersion"] != "1" {
		t.Fatalf("event %v", evs[0])
	}
	e.noDenials(t)
	if !strings.HasPrefix(e.hub.Connects()[0].Username, "contoso.azure-devices.net/gw1/eventgridmodule/?api-version=2021-04-12&DeviceClientType=edgegrid") {
		t.Fatalf("username %s", e.hub.Connects()[0].Username)
	}
}
