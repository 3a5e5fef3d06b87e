package edgehub_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	ehdest "github.com/edgegrid/edgegrid/destination/edgehub"
	"github.com/edgegrid/edgegrid/internal/testenv"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/eventschema"
)

// TestOutputRouting: an event on a topic with an EdgeHub subscription reaches
// edgeHub as a module output message on the documented topic, with $.on
// naming the output, and as the JSON array a webhook would get.
func TestOutputRouting(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	e.topic(t, "sampleTopic4")
	e.subscribe(t, "sampleTopic4", "sampleSubscription4", destination.Endpoint{Type: destination.EdgeHub, OutputName: "sampleSub4"})
	if _, err := e.b.PublishJSON("sampleTopic4", []byte("["+event+"]"), eventschema.ShapeArray); err != nil {
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

func edgeHubOutput(name string) destination.Endpoint {
	return destination.Endpoint{Type: destination.EdgeHub, OutputName: name}
}

// TestOutputWhileDisconnected: with edgeHub away, a delivery fails at once
// with a retryable result and the broker's 1-minute retry queue takes it;
// once edgeHub is back the retry delivers it.
func TestOutputWhileDisconnected(t *testing.T) {
	t.Parallel()
	clock := testenv.NewManualClock()
	e := newEnv(t, envOptions{clock: clock})
	e.topic(t, "t")
	e.subscribe(t, "t", "s", edgeHubOutput("out"))
	e.hub.Stop()
	testenv.Eventually(t, 10*time.Second, "disconnected", func() bool { return !e.c.Connected() })

	sender, err := ehdest.NewFactory(e.c, 0).New(&destination.Endpoint{Type: destination.EdgeHub, OutputName: "out"})
	if err != nil {
		t.Fatal(err)
	}
	ev := &eventschema.Event{Raw: []byte(event), ID: "e1"}
	start := time.Now()
	r := sender.Send(context.Background(), &destination.Delivery{Events: []*eventschema.Event{ev}})
	if r.Outcome != destination.Retry || !errors.Is(r.Err, ehdest.ErrNotConnected) || r.Reason != "EdgeHubUnavailable" {
		t.Fatalf("result %+v", r)
	}
	if time.Since(start) > time.Second {
		t.Fatalf("a disconnected send took %v; it must fail fast", time.Since(start))
	}

	if _, err := e.b.PublishJSON("t", []byte(event), eventschema.ShapeAny); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 5*time.Second, "first attempt failed into the 1-minute queue", func() bool {
		st, _ := e.b.SubscriptionStatus("t", "s")
		return st.OneMinute == 1
	})
	if err := e.hub.Start(); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 15*time.Second, "reconnected", e.c.Connected)
	clock.Advance(time.Minute)
	out := e.hub.WaitOutputs(t, 1, 10*time.Second)
	if out[0].Properties["$.on"] != "out" {
		t.Fatalf("output %+v", out[0])
	}
	testenv.Eventually(t, 10*time.Second, "counted as delivered", func() bool {
		st, _ := e.b.SubscriptionStatus("t", "s")
		return st.Stats.Delivered.Load() == 1
	})
}

// TestOutputSize: a delivery too large for one edgeHub message goes out as
// several arrays in order; an event that alone exceeds the limit is dropped
// for good with a clear reason.
func TestOutputSize(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	sender, err := ehdest.NewFactory(e.c, 0).New(&destination.Endpoint{Type: destination.EdgeHub, OutputName: "big"})
	if err != nil {
		t.Fatal(err)
	}
	mk := func(id string, size int) *eventschema.Event {
		raw := `{"id":"` + id + `","data":"` + strings.Repeat("x", size) + `"}`
		return &eventschema.Event{Raw: []byte(raw), ID: id}
	}
	evs := []*eventschema.Event{mk("a", 100_000), mk("b", 100_000), mk("c", 100_000)}
	if r := sender.Send(context.Background(), &destination.Delivery{Events: evs}); r.Outcome != destination.Delivered {
		t.Fatalf("result %+v", r)
	}
	outs := e.hub.WaitOutputs(t, 2, 10*time.Second)
	var ids []string
	for _, o := range outs {
		if len(o.Topic)+len(o.Payload) > 262144 {
			t.Fatalf("message of %d bytes exceeds edgeHub's limit", len(o.Topic)+len(o.Payload))
		}
		var arr []map[string]any
		if err := json.Unmarshal(o.Payload, &arr); err != nil {
			t.Fatal(err)
		}
		for _, ev := range arr {
			ids = append(ids, ev["id"].(string))
		}
	}
	if len(outs) != 2 || strings.Join(ids, ",") != "a,b,c" {
		t.Fatalf("%d messages with events %v", len(outs), ids)
	}
	r := sender.Send(context.Background(), &destination.Delivery{Events: []*eventschema.Event{mk("huge", 300_000)}})
	if r.Outcome != destination.Drop || r.Reason != "PayloadTooLarge" || !errors.Is(r.Err, ehdest.ErrTooLarge) {
		t.Fatalf("result %+v", r)
	}
	if !strings.Contains(r.Err.Error(), "'huge'") {
		t.Fatalf("reason %v does not name the event", r.Err)
	}
}
