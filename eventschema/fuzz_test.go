package eventschema

import (
	"encoding/json"
	"errors"
	"testing"
)

func fuzzSchema(f *testing.F, s Schema, seeds ...string) {
	for _, seed := range seeds {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		evs, err := Parse(s, body, Options{Topic: "t", Shape: ShapeAny})
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Message == "" {
				t.Fatalf("error without a message: %v", err)
			}
			return
		}
		for _, ev := range evs {
			if !json.Valid(ev.Raw) || ev.Raw[0] != '{' {
				t.Fatalf("accepted event is not a JSON object: %q", ev.Raw)
			}
		}
		if !json.Valid(AppendBatch(nil, evs)) {
			t.Fatal("batch is not valid JSON")
		}
	})
}

func FuzzParseEventGrid(f *testing.F) {
	fuzzSchema(f, EventGrid,
		`[{"id":"1","subject":"s","eventType":"t","eventTime":"x","dataVersion":"1","data":{"a":[1,2]}}]`,
		`[{"Id":"1","Topic":"T","Subject":"s","EventType":"t","EventTime":"x","DataVersion":"1","metadataVersion":"1"}]`,
		`{"id":"1"}`, `[1,2]`, `[{"id":"\u0000"}]`)
}

func FuzzParseCustom(f *testing.F) {
	fuzzSchema(f, Custom, `[{"eventdata":{"make":"Ducati"}}]`, `[{"subject":"s","eventType":"e"}]`, `[[]]`, `{}`)
}

func FuzzParseCloudEvents(f *testing.F) {
	fuzzSchema(f, CloudEvents, ceDoc, `[`+ceDoc+`]`,
		`{"id":"1","source":"s","type":"t","specversion":"1.0","data_base64":"AA=="}`,
		`{"id":"1","source":"s","type":"t","specversion":"1.0","time":"2020-01-01T00:00:00Z"}`)
}
