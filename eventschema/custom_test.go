package eventschema

import (
	"errors"
	"testing"
)

func TestCustom(t *testing.T) {
	tests := map[string]struct {
		body    string
		wantRaw []string
		subject string
		typ     string
		err     error
	}{
		"doc example kept exactly": {
			body:    `[{"eventdata":{"make":"Ducati","model":"Monster"}}]`,
			wantRaw: []string{`{"eventdata":{"make":"Ducati","model":"Monster"}}`},
		},
		"whitespace inside an event is kept": {
			body:    `[ { "a" : 1 } , {"b":[1, 2]} ]`,
			wantRaw: []string{`{ "a" : 1 }`, `{"b":[1, 2]}`},
		},
		"subject and eventType picked up for filters": {
			body:    `[{"Subject":"x/y","eventType":"E","n":1}]`,
			wantRaw: []string{`{"Subject":"x/y","eventType":"E","n":1}`},
			subject: "x/y", typ: "E",
		},
		"non-string subject ignored": {
			body:    `[{"subject":5}]`,
			wantRaw: []string{`{"subject":5}`},
		},
		"not an array":         {body: `{"a":1}`, err: ErrInvalidEvent},
		"element not object":   {body: `[{"a":1},"x"]`, err: ErrInvalidEvent},
		"element is array":     {body: `[[1]]`, err: ErrInvalidEvent},
		"trailing comma (bad)": {body: `[{"a":1},]`, err: ErrInvalidJSON},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			evs, err := Parse(Custom, []byte(tc.body), Options{Topic: "c"})
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err = %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(evs) != len(tc.wantRaw) {
				t.Fatalf("%d events, want %d", len(evs), len(tc.wantRaw))
			}
			for i, w := range tc.wantRaw {
				if string(evs[i].Raw) != w {
					t.Errorf("event %d = %s, want %s", i, evs[i].Raw, w)
				}
			}
			if evs[0].Subject != tc.subject || evs[0].Type != tc.typ {
				t.Errorf("subject/type = %q/%q", evs[0].Subject, evs[0].Type)
			}
		})
	}
}

func TestAppendBatch(t *testing.T) {
	evs, err := Parse(Custom, []byte(`[{"a":1},{"b":2}]`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := string(AppendBatch(nil, evs))
	if got != `[{"a":1},{"b":2}]` || BatchSize(evs) != len(got) {
		t.Fatalf("batch %s size %d", got, BatchSize(evs))
	}
	if one := string(AppendBatch(nil, evs[:1])); one != `[{"a":1}]` {
		t.Fatalf("single = %s", one)
	}
}

func TestParseSchema(t *testing.T) {
	tests := map[string]struct {
		in   string
		want Schema
		ok   bool
	}{
		"canonical EG":     {"EventGridSchema", EventGrid, true},
		"tutorial casing":  {"eventGridSchema", EventGrid, true},
		"lower custom":     {"customeventschema", Custom, true},
		"CustomSchema":     {"CustomSchema", Custom, true},
		"cloud events":     {"CloudEventSchemaV1_0", CloudEvents, true},
		"cloud alias":      {"cloudeventschema", CloudEvents, true},
		"unknown":          {"AvroSchema", EventGrid, false},
		"empty is unknown": {"", EventGrid, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, ok := ParseSchema(tc.in)
			if ok != tc.ok || (ok && got != tc.want) {
				t.Fatalf("ParseSchema(%q) = %v,%v", tc.in, got, ok)
			}
		})
	}
	for _, s := range []Schema{EventGrid, Custom, CloudEvents} {
		if back, ok := ParseSchema(s.String()); !ok || back != s {
			t.Errorf("round trip of %v failed", s)
		}
	}
}
