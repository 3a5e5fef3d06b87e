package eventgrid

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/eventschema"
)

// FuzzPlan: whatever the event sizes, every request body is a JSON array of
// at most MaxRequestBytes, the events that fit are all sent once and in
// order, and exactly the others are refused.
func FuzzPlan(f *testing.F) {
	f.Add([]byte{1, 2, 3}, true)
	f.Add([]byte{130, 130, 130}, true)
	f.Add([]byte{255, 1, 255}, false)
	f.Add([]byte{210, 0, 209}, true)
	f.Fuzz(func(t *testing.T, sizes []byte, eventGrid bool) {
		if len(sizes) > 12 {
			sizes = sizes[:12]
		}
		if len(sizes) == 0 {
			return // the broker never sends an empty delivery
		}
		schema := eventschema.Custom
		if eventGrid {
			schema = eventschema.EventGrid
		}
		evs := fuzzEvents(t, schema, sizes)
		s := &Sender{topic: json.RawMessage(`"cloudTopic"`)}
		p, err := s.plan(&destination.Delivery{Schema: schema, Events: evs})
		if err != nil {
			t.Fatal(err)
		}
		var sent []string
		for _, body := range p.bodies {
			var arr []struct{ ID string }
			if len(body) > MaxRequestBytes || json.Unmarshal(body, &arr) != nil || len(arr) == 0 {
				t.Fatalf("bad body of %d bytes", len(body))
			}
			for _, e := range arr {
				sent = append(sent, e.ID)
			}
		}
		refused := map[int]bool{}
		for _, r := range p.refused {
			refused[r.Index] = true
		}
		var want []string
		for i, ev := range evs {
			raw := ev.Raw
			if eventGrid {
				raw, _ = eventschema.WithTopic(ev, s.topic)
			}
			if tooBig := len(raw)+2 > MaxRequestBytes; tooBig != refused[i] {
				t.Fatalf("event %d of %d bytes: refused %v", i, len(raw), refused[i])
			} else if !tooBig {
				want = append(want, fmt.Sprintf("e%d", i))
			}
		}
		if strings.Join(sent, ",") != strings.Join(want, ",") {
			t.Fatalf("sent %v, want %v", sent, want)
		}
	})
}

// fuzzEvents builds one event per size byte, of about size × 4.2 KB, so that
// sizes near 250 straddle the 1 MB limit.
func fuzzEvents(t *testing.T, schema eventschema.Schema, sizes []byte) []*eventschema.Event {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, n := range sizes {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"e%d","subject":"s","eventType":"t","eventTime":"2026-01-01T00:00:00Z","dataVersion":"1","data":"%s"}`,
			i, strings.Repeat("x", int(n)*4200))
	}
	b.WriteByte(']')
	evs, err := eventschema.Parse(schema, b.Bytes(), eventschema.Options{Topic: "t", MaxEventSize: 2 << 20})
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// FuzzErrorBodies: the cloud's and the token endpoint's error bodies are
// reduced to one bounded line, whatever they contain.
func FuzzErrorBodies(f *testing.F) {
	f.Add(`{"error":{"code":"Unauthorized","message":"The request authorization key is not authorized."}}`)
	f.Add(`{"error":"invalid_client","error_description":"AADSTS7000215: Invalid client secret provided.\r\nTrace ID: x"}`)
	f.Add(`{"statusCode":400,"message":"bad resource"}`)
	f.Add("<html>\n<body>gateway</body></html>")
	f.Add(`{"error":5}`)
	f.Fuzz(func(t *testing.T, body string) {
		resp := &http.Response{StatusCode: 401, Body: io.NopCloser(strings.NewReader(body))}
		for _, got := range []string{cloudMessage(strings.NewReader(body)), tokenEndpointMessage(resp)} {
			if strings.ContainsAny(got, "\n") || len(got) > maxSummary+len("…") {
				t.Fatalf("summary %q", got)
			}
		}
	})
}
