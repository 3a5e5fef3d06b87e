package edgehub_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
	ehdest "github.com/edgegrid/edgegrid/destination/edgehub"
	"github.com/edgegrid/edgegrid/destination/eventgrid"
	"github.com/edgegrid/edgegrid/destination/webhook"
	"github.com/edgegrid/edgegrid/edgehub"
	"github.com/edgegrid/edgegrid/internal/testenv"
	"github.com/edgegrid/edgegrid/retry"
	"github.com/edgegrid/edgegrid/workload"
)

// env is a module's edgeHub side wired to the doubles: the workload API and
// edgeHub doubles, a real broker with WebHook and EdgeHub destinations, and
// the client under test.
type env struct {
	wl  *testenv.Workload
	hub *testenv.EdgeHub
	b   *broker.Broker
	c   *edgehub.Client
}

type envOptions struct {
	clock         *testenv.ManualClock
	routes        map[string]string
	maxBuffered   int64
	outputTimeout time.Duration
	noStart       bool
}

func newEnv(t testing.TB, eo envOptions) *env {
	t.Helper()
	e := &env{wl: testenv.NewWorkload(t)}
	e.hub = testenv.NewEdgeHub(t, e.wl)
	wc, err := workload.New(workload.Options{URI: e.wl.URI, ModuleID: e.wl.ModuleID, GenerationID: e.wl.GenerationID})
	if err != nil {
		t.Fatal(err)
	}
	e.c, err = edgehub.New(edgehub.Options{
		Identity: edgehub.Identity{HubHostname: e.wl.Hub + ".azure-devices.net", Gateway: "localhost",
			DeviceID: e.wl.Device, ModuleID: e.wl.ModuleID},
		Address: e.hub.Addr, Workload: wc, InputRoutes: eo.routes, Clock: clockOf(eo),
	})
	if err != nil {
		t.Fatal(err)
	}
	opts := []broker.Option{
		broker.WithFactory(destination.WebHook, webhook.NewFactory(webhook.Options{})),
		broker.WithFactory(destination.EdgeHub, ehdest.NewFactory(e.c, eo.outputTimeout)),
		broker.WithFactory(destination.EventGrid, eventgrid.NewFactory(eventgrid.Options{HTTPSOnly: true}, nil)),
	}
	if eo.clock != nil {
		opts = append(opts, broker.WithClock(eo.clock))
		e.hub.SetNow(eo.clock.Now) // tokens expire in the clock's time
	}
	e.b, err = broker.New(broker.Config{MaxBufferedBytes: eo.maxBuffered}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := e.c.Close(ctx); err != nil {
			t.Error(err)
		}
		e.b.Shutdown(ctx)
	})
	if !eo.noStart {
		e.start(t)
	}
	return e
}

func clockOf(eo envOptions) retry.Clock {
	if eo.clock == nil {
		return nil
	}
	return eo.clock
}

// start starts the client and waits for the connection and the first twin GET.
func (e *env) start(t testing.TB) {
	t.Helper()
	e.c.Start(e.b)
	testenv.Eventually(t, 10*time.Second, "connected to edgeHub and twin fetched", func() bool {
		return e.c.Connected() && e.hub.TwinGets() > 0
	})
}

func (e *env) topic(t testing.TB, name string) {
	t.Helper()
	if _, _, err := e.b.PutTopic(broker.TopicConfig{Name: name}); err != nil {
		t.Fatal(err)
	}
}

func (e *env) subscribe(t *testing.T, topic, name string, ep destination.Endpoint) {
	t.Helper()
	if _, _, err := e.b.PutSubscription(broker.SubscriptionConfig{Name: name, Topic: topic, Destination: ep}); err != nil {
		t.Fatal(err)
	}
}

// noDenials fails when the client used a topic edgeHub would refuse.
func (e *env) noDenials(t *testing.T) {
	t.Helper()
	if d := e.hub.Denied(); len(d) > 0 {
		t.Fatalf("edgeHub would refuse: %q", d)
	}
}

const event = `{"id":"e1","eventType":"recordInserted","subject":"myapp/vehicles/motorcycles","eventTime":"2019-07-28T21:03:07+00:00","dataVersion":"1.0","data":{"make":"Ducati","model":"Monster"}}`

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
