package eventschema

import (
	"encoding/base64"
	"time"
)

// ceWire holds the CloudEvents 1.0 context attributes edgegrid validates, as
// raw JSON sub-slices. Attribute names are matched case-insensitively, so the
// documentation's "specVersion" example is understood.
type ceWire struct {
	ID, Source, SpecVersion, Type, Time, Subject, DataContentType, DataSchema, Data, DataBase64 []byte
}

var ceFields = [...]string{"id", "source", "specversion", "type", "time", "subject", "datacontenttype", "dataschema", "data", "data_base64"}

func decodeCloudEvent(el []byte) ceWire {
	var w ceWire
	dst := [...]*[]byte{&w.ID, &w.Source, &w.SpecVersion, &w.Type, &w.Time, &w.Subject, &w.DataContentType, &w.DataSchema, &w.Data, &w.DataBase64}
	members(el, func(key, val []byte) {
		for k, name := range ceFields {
			if keyIs(key, name) {
				*dst[k] = val
				return
			}
		}
	})
	return w
}

// ceRequired lists the required attributes.
var ceRequired = [...]string{"id", "source", "specversion", "type"}

// acceptedSpecVersions lists the accepted specversion values. "1.0-rc1" appears in the
// module's own event-schemas.md example.
var acceptedSpecVersions = map[string]bool{"1.0": true, "1.0-rc1": true}

func parseCloudEvent(i int, el []byte) (*Event, *ParseError) {
	w := decodeCloudEvent(el)
	req := [...][]byte{w.ID, w.Source, w.SpecVersion, w.Type}
	for k, tok := range req {
		if err := requireNonEmptyString(i, ceRequired[k], tok); err != nil {
			return nil, err
		}
	}
	if v := unquote(w.SpecVersion); !acceptedSpecVersions[v] {
		return nil, eventError(i, "specversion", "is '%s'; only CloudEvents 1.0 is supported.", v)
	}
	if err := checkCloudEventOptional(i, &w); err != nil {
		return nil, err
	}
	raw := append([]byte(nil), el...)
	ev := &Event{Raw: raw, ID: viewIn(raw, el, w.ID), Type: viewIn(raw, el, w.Type)}
	if kindOf(w.Subject) == tokString {
		ev.Subject = viewIn(raw, el, w.Subject)
	}
	return ev, nil
}

func requireNonEmptyString(i int, name string, tok []byte) *ParseError {
	switch kindOf(tok) {
	case tokAbsent:
		return eventError(i, name, "is required.")
	case tokOther:
		return eventError(i, name, "must be a string.")
	}
	if unquote(tok) == "" {
		return eventError(i, name, "must not be empty.")
	}
	return nil
}

// checkCloudEventOptional validates the optional attributes that have a format.
func checkCloudEventOptional(i int, w *ceWire) *ParseError {
	opt := [...]struct {
		name string
		tok  []byte
	}{
		{"subject", w.Subject}, {"datacontenttype", w.DataContentType},
		{"dataschema", w.DataSchema}, {"time", w.Time}, {"data_base64", w.DataBase64},
	}
	for _, a := range opt {
		if kindOf(a.tok) == tokOther {
			return eventError(i, a.name, "must be a string.")
		}
	}
	if kindOf(w.Time) == tokString {
		if _, err := time.Parse(time.RFC3339Nano, unquote(w.Time)); err != nil {
			return eventError(i, "time", "must be an RFC 3339 timestamp.")
		}
	}
	if kindOf(w.DataBase64) == tokString {
		if len(w.Data) > 0 {
			return eventError(i, "data_base64", "cannot be combined with 'data'.")
		}
		if _, err := base64.StdEncoding.DecodeString(unquote(w.DataBase64)); err != nil {
			return eventError(i, "data_base64", "is not valid base64.")
		}
	}
	return nil
}
