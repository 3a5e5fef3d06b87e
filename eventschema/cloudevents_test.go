package eventschema

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

const ceDoc = `{"id":"1807","type":"recordInserted","source":"myapp/vehicles/motorcycles","time":"2017-08-10T21:03:07+00:00","datacontenttype":"application/json","data":{"make":"Ducati","model":"Monster"},"specversion":"1.0"}`

func TestCloudEventsAccepted(t *testing.T) {
	tests := map[string]struct {
		body  string
		shape Shape
		n     int
	}{
		"batch":                     {`[` + ceDoc + `]`, ShapeArray, 1},
		"single structured":         {ceDoc, ShapeObject, 1},
		"either shape with object":  {ceDoc, ShapeAny, 1},
		"either shape with array":   {`[` + ceDoc + `,` + ceDoc + `]`, ShapeAny, 2},
		"data_base64":               {`{"id":"1","source":"s","type":"t","specversion":"1.0","data_base64":"aGVsbG8="}`, ShapeObject, 1},
		"doc literal 1.0-rc1 form":  {`[{"id":"1807","type":"recordInserted","source":"myapp/vehicles/motorcycles","time":"2017-08-10T21:03:07+00:00","datacontenttype":"application/json","data":{"make":"Ducati"},"dataVersion":"1.0","specVersion":"1.0-rc1"}]`, ShapeArray, 1},
		"extension attributes kept": {`{"id":"1","source":"s","type":"t","specversion":"1.0","myext":"v","num":3}`, ShapeObject, 1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			evs, err := Parse(CloudEvents, []byte(tc.body), Options{Topic: "ce", Shape: tc.shape})
			if err != nil {
				t.Fatal(err)
			}
			if len(evs) != tc.n {
				t.Fatalf("%d events", len(evs))
			}
		})
	}
}

func TestCloudEventKeptVerbatim(t *testing.T) {
	evs, err := Parse(CloudEvents, []byte(ceDoc), Options{Topic: "ce", Shape: ShapeObject})
	if err != nil {
		t.Fatal(err)
	}
	ev := evs[0]
	if string(ev.Raw) != ceDoc {
		t.Fatalf("raw rewritten: %s", ev.Raw)
	}
	if ev.ID != "1807" || ev.Type != "recordInserted" || ev.Subject != "" {
		t.Fatalf("envelope %+v", ev)
	}
	if strings.Contains(string(ev.Raw), "null") {
		t.Fatal("a null was added")
	}
}

func TestCloudEventsRejected(t *testing.T) {
	base := `"id":"1","source":"s","type":"t","specversion":"1.0"`
	tests := map[string]struct {
		body  string
		field string
	}{
		"missing id":          {`{"source":"s","type":"t","specversion":"1.0"}`, "id"},
		"empty source":        {`{"id":"1","source":"","type":"t","specversion":"1.0"}`, "source"},
		"missing type":        {`{"id":"1","source":"s","specversion":"1.0"}`, "type"},
		"missing specversion": {`{"id":"1","source":"s","type":"t"}`, "specversion"},
		"specversion 0.3":     {`{"id":"1","source":"s","type":"t","specversion":"0.3"}`, "specversion"},
		"bad time":            {`{` + base + `,"time":"yesterday"}`, "time"},
		"numeric subject":     {`{` + base + `,"subject":7}`, "subject"},
		"data and base64":     {`{` + base + `,"data":1,"data_base64":"AA=="}`, "data_base64"},
		"bad base64":          {`{` + base + `,"data_base64":"***"}`, "data_base64"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(CloudEvents, []byte(tc.body), Options{Shape: ShapeObject})
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Field != tc.field || !errors.Is(err, ErrInvalidEvent) {
				t.Fatalf("err = %v, want field %q", err, tc.field)
			}
		})
	}
}

func TestBinaryCloudEvent(t *testing.T) {
	tests := map[string]struct {
		ct, body string
		want     string
	}{
		"json data": {"application/json", `{"a":1}`,
			`{"data":{"a":1},"datacontenttype":"application/json","id":"42","myext":"x y","source":"/sensors/1","specversion":"1.0","type":"t"}`},
		"text data": {"text/plain", "hello",
			`{"data":"hello","datacontenttype":"text/plain","id":"42","myext":"x y","source":"/sensors/1","specversion":"1.0","type":"t"}`},
		"binary data": {"application/octet-stream", "\x00\x01",
			`{"data_base64":"AAE=","datacontenttype":"application/octet-stream","id":"42","myext":"x y","source":"/sensors/1","specversion":"1.0","type":"t"}`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := http.Header{}
			h.Set("ce-specversion", "1.0")
			h.Set("ce-id", "42")
			h.Set("ce-source", "/sensors/1")
			h.Set("ce-type", "t")
			h.Set("ce-myext", "x%20y")
			h.Set("Content-Type", tc.ct)
			if !IsBinaryCloudEvent(h) {
				t.Fatal("not detected as binary mode")
			}
			ev, err := ParseBinaryCloudEvent(h, []byte(tc.body), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if string(ev.Raw) != tc.want {
				t.Fatalf("got  %s\nwant %s", ev.Raw, tc.want)
			}
		})
	}
}

func TestBinaryCloudEventInvalid(t *testing.T) {
	h := http.Header{}
	h.Set("ce-specversion", "1.0")
	h.Set("ce-source", "s")
	h.Set("ce-type", "t")
	h.Set("Content-Type", "application/json")
	if _, err := ParseBinaryCloudEvent(h, []byte(`{}`), Options{}); !errors.Is(err, ErrInvalidEvent) {
		t.Fatalf("missing ce-id: %v", err)
	}
	h.Set("ce-id", "1")
	if _, err := ParseBinaryCloudEvent(h, []byte(`{bad`), Options{}); !errors.Is(err, ErrInvalidJSON) {
		t.Fatalf("bad JSON data: %v", err)
	}
}
