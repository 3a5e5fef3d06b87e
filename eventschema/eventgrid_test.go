package eventschema

import (
	"errors"
	"strings"
	"testing"
)

func TestEventGridAccepted(t *testing.T) {
	tests := map[string]struct {
		body string
		want string // delivered Raw of the first event
	}{
		"doc example gets topic and metadataVersion": {
			body: `[{"id":"eventId-func-0","eventType":"recordInserted","subject":"myapp/vehicles/motorcycles","eventTime":"2019-07-28T21:03:07+00:00","dataVersion":"1.0","data":{"make":"Ducati","model":"Monster"}}]`,
			want: `{"id":"eventId-func-0","topic":"sampleTopic1","subject":"myapp/vehicles/motorcycles","eventType":"recordInserted","eventTime":"2019-07-28T21:03:07+00:00","dataVersion":"1.0","metadataVersion":"1","data":{"make":"Ducati","model":"Monster"}}`,
		},
		"PascalCase from the .NET SDK": {
			body: `[{"Id":"g1","Topic":"sampleTopic1","Subject":"sensor:42","EventType":"sensor.temperature","DataVersion":"1.0","EventTime":"2019-10-01T21:35:17.7219554Z","Data":{"t":1}}]`,
			want: `{"id":"g1","topic":"sampleTopic1","subject":"sensor:42","eventType":"sensor.temperature","eventTime":"2019-10-01T21:35:17.7219554Z","dataVersion":"1.0","metadataVersion":"1","data":{"t":1}}`,
		},
		"absent data stays absent": {
			body: `[{"id":"1","subject":"","eventType":"","eventTime":"x","dataVersion":""}]`,
			want: `{"id":"1","topic":"sampleTopic1","subject":"","eventType":"","eventTime":"x","dataVersion":"","metadataVersion":"1"}`,
		},
		"topic differing only in case and metadataVersion 1": {
			body: `[{"id":"1","topic":"SAMPLETOPIC1","metadataVersion":"1","subject":"s","eventType":"t","eventTime":"x","dataVersion":"1","data":5}]`,
			want: `{"id":"1","topic":"sampleTopic1","subject":"s","eventType":"t","eventTime":"x","dataVersion":"1","metadataVersion":"1","data":5}`,
		},
		"escaped strings are kept verbatim": {
			body: `[{"id":"a\"b","subject":"\u00e9","eventType":"t","eventTime":"x","dataVersion":"1","unknown":1}]`,
			want: `{"id":"a\"b","topic":"sampleTopic1","subject":"\u00e9","eventType":"t","eventTime":"x","dataVersion":"1","metadataVersion":"1"}`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			evs, err := Parse(EventGrid, []byte(tc.body), Options{Topic: "sampleTopic1"})
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got := string(evs[0].Raw); got != tc.want {
				t.Fatalf("Raw\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestEventGridEnvelopeFields(t *testing.T) {
	evs, err := Parse(EventGrid, []byte(`[{"id":"a\"b","subject":"\u00e9x","eventType":"T","eventTime":"x","dataVersion":"2.0"}]`), Options{Topic: "t"})
	if err != nil {
		t.Fatal(err)
	}
	ev := evs[0]
	if ev.ID != `a"b` || ev.Subject != "éx" || ev.Type != "T" || ev.DataVersion != "2.0" {
		t.Fatalf("envelope = %+v", ev)
	}
}

func TestEventGridRejected(t *testing.T) {
	valid := `"id":"1","subject":"s","eventType":"t","eventTime":"x","dataVersion":"1"`
	tests := map[string]struct {
		body      string
		kind      error
		index     int
		field     string
		msgSubstr string
	}{
		"broken JSON":         {`[{"id":`, ErrInvalidJSON, -1, "", "not valid JSON"},
		"object not array":    {`{` + valid + `}`, ErrInvalidEvent, -1, "", "JSON array"},
		"string body":         {`"x"`, ErrInvalidEvent, -1, "", "JSON array"},
		"empty array":         {`[]`, ErrEmpty, -1, "", "no events"},
		"empty body":          {`  `, ErrEmpty, -1, "", "empty"},
		"element not object":  {`[1]`, ErrInvalidEvent, 0, "", "JSON object"},
		"missing id":          {`[{"subject":"s","eventType":"t","eventTime":"x","dataVersion":"1"}]`, ErrInvalidEvent, 0, "id", "required"},
		"empty id":            {`[{"id":"","subject":"s","eventType":"t","eventTime":"x","dataVersion":"1"}]`, ErrInvalidEvent, 0, "id", "empty"},
		"null subject":        {`[{"id":"1","subject":null,"eventType":"t","eventTime":"x","dataVersion":"1"}]`, ErrInvalidEvent, 0, "subject", "required"},
		"missing eventType":   {`[{"id":"1","subject":"s","eventTime":"x","dataVersion":"1"}]`, ErrInvalidEvent, 0, "eventType", "required"},
		"missing eventTime":   {`[{"id":"1","subject":"s","eventType":"t","dataVersion":"1"}]`, ErrInvalidEvent, 0, "eventTime", "required"},
		"missing dataVersion": {`[{"id":"1","subject":"s","eventType":"t","eventTime":"x"}]`, ErrInvalidEvent, 0, "dataVersion", "required"},
		"numeric id":          {`[{"id":1,"subject":"s","eventType":"t","eventTime":"x","dataVersion":"1"}]`, ErrInvalidEvent, 0, "id", "string"},
		"metadataVersion 2":   {`[{` + valid + `,"metadataVersion":"2"}]`, ErrInvalidEvent, 0, "metadataVersion", `"1"`},
		"metadataVersion num": {`[{` + valid + `,"metadataVersion":1}]`, ErrInvalidEvent, 0, "metadataVersion", `"1"`},
		"other topic":         {`[{` + valid + `,"topic":"otherTopic"}]`, ErrInvalidEvent, 0, "topic", "otherTopic"},
		"second event bad":    {`[{` + valid + `},{"id":"2"}]`, ErrInvalidEvent, 1, "subject", "Event 1"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			evs, err := Parse(EventGrid, []byte(tc.body), Options{Topic: "sampleTopic1"})
			if err == nil {
				t.Fatalf("accepted %d events", len(evs))
			}
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, tc.kind) {
				t.Fatalf("error %v (%T), want kind %v", err, err, tc.kind)
			}
			if pe.Index != tc.index || pe.Field != tc.field || !strings.Contains(pe.Message, tc.msgSubstr) {
				t.Fatalf("got index=%d field=%q msg=%q", pe.Index, pe.Field, pe.Message)
			}
		})
	}
}

func TestEventGridSingleObjectShape(t *testing.T) {
	body := `{"Id":"g","Subject":"s","EventType":"t","EventTime":"x","DataVersion":"1"}`
	evs, err := Parse(EventGrid, []byte(body), Options{Topic: "egtopic", Shape: ShapeObject})
	if err != nil || len(evs) != 1 || evs[0].ID != "g" {
		t.Fatalf("evs=%v err=%v", evs, err)
	}
	if _, err := Parse(EventGrid, []byte("["+body+"]"), Options{Topic: "egtopic", Shape: ShapeObject}); !errors.Is(err, ErrInvalidEvent) {
		t.Fatalf("array on single-object route: %v", err)
	}
}

func TestMaxEventSize(t *testing.T) {
	body := `[{"id":"1","subject":"s","eventType":"t","eventTime":"x","dataVersion":"1","data":"` + strings.Repeat("a", 200) + `"}]`
	_, err := Parse(EventGrid, []byte(body), Options{Topic: "t", MaxEventSize: 100})
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
}

func TestWithTopic(t *testing.T) {
	evs, err := Parse(EventGrid, []byte(`[{"id":"1","subject":"s","eventType":"t","eventTime":"x","dataVersion":"1","data":{"a":1}}]`), Options{Topic: "local"})
	if err != nil {
		t.Fatal(err)
	}
	for tok, want := range map[string]string{
		`null`:    `{"id":"1","topic":null,"subject":"s","eventType":"t","eventTime":"x","dataVersion":"1","metadataVersion":"1","data":{"a":1}}`,
		`"cloud"`: `{"id":"1","topic":"cloud","subject":"s","eventType":"t","eventTime":"x","dataVersion":"1","metadataVersion":"1","data":{"a":1}}`,
	} {
		got, err := WithTopic(evs[0], []byte(tok))
		if err != nil || string(got) != want {
			t.Fatalf("WithTopic(%s) = %s, %v", tok, got, err)
		}
	}
}
