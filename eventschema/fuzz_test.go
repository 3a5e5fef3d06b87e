package eventschema

import (
	"bytes"
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

// FuzzScannerAgreesWithJSON: for any valid JSON object, the members the
// scanner finds are exactly the ones encoding/json sees (same keys, same
// values), so the zero-copy parsers read what the standard library would.
func FuzzScannerAgreesWithJSON(f *testing.F) {
	f.Add([]byte(`{"a":1,"b":[1,{"c":"}"}],"d":"x\"y","e":null, "f" : true}`))
	f.Add([]byte(`{"\u0069d":"1","ID":2}`))
	f.Fuzz(func(t *testing.T, obj []byte) {
		var want map[string]json.RawMessage
		if json.Unmarshal(obj, &want) != nil || !json.Valid(obj) {
			return
		}
		trimmed := bytes.TrimSpace(obj)
		got := map[string][]byte{}
		members(trimmed, func(key, val []byte) {
			var k string
			if err := json.Unmarshal(key, &k); err != nil {
				t.Fatalf("key %q is not a JSON string", key)
			}
			got[k] = val
		})
		if len(got) != len(want) {
			t.Fatalf("scanner found %d members, encoding/json %d", len(got), len(want))
		}
		for k, v := range want {
			if !bytes.Equal(bytes.TrimSpace(v), got[k]) {
				t.Fatalf("member %q: scanner %q, encoding/json %q", k, got[k], v)
			}
		}
	})
}

// FuzzDecodeEventGridAgrees: the scanner picks the same envelope values as
// encoding/json's case-insensitive struct decoding would.
func FuzzDecodeEventGridAgrees(f *testing.F) {
	f.Add([]byte(`{"Id":"1","SUBJECT":"s","eventtype":"t","EventTime":"x","dataVersion":"1","Data":{"a":1},"data":2}`))
	f.Fuzz(func(t *testing.T, obj []byte) {
		var ref struct {
			ID, Topic, Subject, EventType, EventTime, DataVersion, MetadataVersion, Data json.RawMessage
		}
		if !json.Valid(obj) || json.Unmarshal(obj, &ref) != nil {
			return
		}
		w := decodeEventGrid(bytes.TrimSpace(obj))
		pairs := [][2][]byte{{ref.ID, w.ID}, {ref.Topic, w.Topic}, {ref.Subject, w.Subject}, {ref.EventType, w.EventType},
			{ref.EventTime, w.EventTime}, {ref.DataVersion, w.DataVersion}, {ref.MetadataVersion, w.MetadataVersion}, {ref.Data, w.Data}}
		for i, p := range pairs {
			if !bytes.Equal(bytes.TrimSpace(p[0]), p[1]) {
				t.Fatalf("field %s: encoding/json %q, scanner %q", egFields[i], p[0], p[1])
			}
		}
	})
}
