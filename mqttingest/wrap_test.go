package mqttingest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"regexp"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/edgegrid/edgegrid/eventschema"
)

var when = time.Date(2026, 3, 4, 5, 6, 7, 890, time.FixedZone("x", 3600))

func TestWrapGolden(t *testing.T) {
	m := rawMessage{ID: "id-1", Subject: "sensors/s1/t", EventType: "Contoso.T", Source: "mqtt://b:1883", Time: when}
	cases := []struct {
		schema  eventschema.Schema
		payload string
		want    string
	}{
		{eventschema.EventGrid, `{"a": "<b>"}`,
			`{"id":"id-1","subject":"sensors/s1/t","eventType":"Contoso.T","eventTime":"2026-03-04T04:06:07.00000089Z","dataVersion":"1.0","data":{"a":"<b>"}}`},
		{eventschema.EventGrid, "\xff\x00", `{"id":"id-1","subject":"sensors/s1/t","eventType":"Contoso.T","eventTime":"2026-03-04T04:06:07.00000089Z","dataVersion":"1.0","data":"/wA="}`},
		{eventschema.Custom, "42", `{"id":"id-1","subject":"sensors/s1/t","eventType":"Contoso.T","eventTime":"2026-03-04T04:06:07.00000089Z","dataVersion":"1.0","data":42}`},
		{eventschema.CloudEvents, `[1, 2]`,
			`{"specversion":"1.0","id":"id-1","source":"mqtt://b:1883","type":"Contoso.T","subject":"sensors/s1/t","time":"2026-03-04T04:06:07.00000089Z","datacontenttype":"application/json","data":[1,2]}`},
		{eventschema.CloudEvents, "plain text",
			`{"specversion":"1.0","id":"id-1","source":"mqtt://b:1883","type":"Contoso.T","subject":"sensors/s1/t","time":"2026-03-04T04:06:07.00000089Z","datacontenttype":"application/octet-stream","data_base64":"cGxhaW4gdGV4dA=="}`},
	}
	for _, c := range cases {
		m.Payload = []byte(c.payload)
		if got := string(wrap(c.schema, m)); got != c.want {
			t.Errorf("wrap(%v, %q) =\n%s\nwant\n%s", c.schema, c.payload, got, c.want)
		}
	}
}

func TestNewID(t *testing.T) {
	re := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for range 1000 {
		id := newID()
		if !re.MatchString(id) || seen[id] {
			t.Fatalf("newID() = %q (seen before: %v)", id, seen[id])
		}
		seen[id] = true
	}
}

// FuzzWrap: whatever the payload and MQTT topic, the wrapped event parses in
// its schema, carries the topic as subject, and its data gives back the
// payload (as JSON when it was JSON, else through base64).
func FuzzWrap(f *testing.F) {
	for _, p := range []string{`{"t":1}`, "not json", "", "\xff", `"s"`, "null", " [1] ", "1e999", `{"a":"\u0000"}`} {
		f.Add(uint8(0), "a/b", p)
	}
	f.Fuzz(func(t *testing.T, s uint8, topic, payload string) {
		schema := []eventschema.Schema{eventschema.EventGrid, eventschema.CloudEvents, eventschema.Custom}[int(s)%3]
		m := rawMessage{ID: newID(), Subject: topic, EventType: "T", Source: "mqtt://h:1", Time: when, Payload: []byte(payload)}
		out := wrap(schema, m)
		evs, err := eventschema.Parse(schema, out, eventschema.Options{Topic: "t", Shape: eventschema.ShapeObject, MaxEventSize: 1 << 30})
		if err != nil {
			t.Fatalf("wrap(%v, %q) = %s does not parse: %v", schema, payload, out, err)
		}
		if utf8.ValidString(topic) && evs[0].Subject != topic {
			t.Fatalf("subject %q, want %q", evs[0].Subject, topic)
		}
		var ev struct {
			Data       json.RawMessage `json:"data"`
			DataBase64 *string         `json:"data_base64"`
		}
		if err := json.Unmarshal(evs[0].Raw, &ev); err != nil {
			t.Fatal(err)
		}
		checkData(t, schema, []byte(payload), ev.Data, ev.DataBase64)
	})
}

func checkData(t *testing.T, schema eventschema.Schema, payload []byte, data json.RawMessage, b64 *string) {
	t.Helper()
	if utf8.Valid(payload) && json.Valid(payload) {
		var want, got bytes.Buffer
		_ = json.Compact(&want, payload)
		_ = json.Compact(&got, data)
		if !bytes.Equal(want.Bytes(), got.Bytes()) {
			t.Fatalf("JSON payload %q delivered as %s", payload, data)
		}
		return
	}
	enc := ""
	switch {
	case schema == eventschema.CloudEvents && b64 != nil:
		enc = *b64
	case schema == eventschema.CloudEvents && len(payload) == 0:
		return // no data at all
	default:
		if err := json.Unmarshal(data, &enc); err != nil {
			t.Fatalf("binary payload %q delivered as %s", payload, data)
		}
	}
	if dec, err := base64.StdEncoding.DecodeString(enc); err != nil || !bytes.Equal(dec, payload) {
		t.Fatalf("binary payload %q delivered as %q", payload, enc)
	}
}
