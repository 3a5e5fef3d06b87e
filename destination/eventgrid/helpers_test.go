package eventgrid_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/destination/eventgrid"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

// logBuffer collects log lines safely.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// count is how many lines contain s.
func (l *logBuffer) count(s string) int { return strings.Count(l.String(), s) }

// rig is a cloud double and a factory whose client trusts it.
type rig struct {
	ca    *testenv.CA
	cloud *testenv.CloudEventGrid
	log   *logBuffer
	f     *eventgrid.Factory
}

// newRig starts a cloud topic double and a factory for it; opts may add a
// credential.
func newRig(t *testing.T, co testenv.CloudOptions, opts eventgrid.Options) *rig {
	t.Helper()
	r := &rig{ca: testenv.NewCA(t, "cloud"), log: &logBuffer{}}
	r.cloud = testenv.NewCloudEventGrid(t, r.ca, co)
	opts.HTTPSOnly, opts.AllowInvalidHostnames = true, true
	opts.Logger = zerolog.New(r.log)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: testenv.ClientTLS(r.ca)}}
	r.f = eventgrid.NewFactory(opts, client)
	return r
}

// sender builds a sender for the double's endpoint; mod adjusts the endpoint.
func (r *rig) sender(t *testing.T, mod func(*destination.Endpoint)) destination.Sender {
	t.Helper()
	ep := destination.Endpoint{Type: destination.EventGrid, URL: r.cloud.URL}
	if mod != nil {
		mod(&ep)
	}
	s, err := r.f.New(&ep)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func withKey(k string) func(*destination.Endpoint) {
	return func(ep *destination.Endpoint) { ep.SASKey = k }
}

// egEvents parses n Event Grid events of topic "local" with data of about
// dataBytes bytes each.
func egEvents(t testing.TB, n, dataBytes int) []*eventschema.Event {
	t.Helper()
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"ev-%d","subject":"myapp/vehicles/%d","eventType":"recordInserted","eventTime":"2019-07-28T21:03:07+00:00","dataVersion":"1.0","data":{"pad":"%s"}}`,
			i, i, strings.Repeat("x", dataBytes))
	}
	b.WriteByte(']')
	return parse(t, eventschema.EventGrid, b.String())
}

func parse(t testing.TB, s eventschema.Schema, body string) []*eventschema.Event {
	t.Helper()
	evs, err := eventschema.Parse(s, []byte(body), eventschema.Options{Topic: "local", Shape: eventschema.ShapeAny, MaxEventSize: 2 << 20})
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func deliver(s destination.Sender, schema eventschema.Schema, evs []*eventschema.Event) destination.Result {
	return s.Send(context.Background(), &destination.Delivery{Subscription: "sub1", Topic: "local", Schema: schema, Events: evs})
}
