package mqttingest

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"time"
	"unicode/utf8"

	"github.com/edgegrid/edgegrid/eventschema"
)

// rawMessage is what a raw route turns into one event.
type rawMessage struct {
	ID        string    // the event id
	Subject   string    // the MQTT topic
	EventType string    // the route's event type
	Source    string    // CloudEvents source
	Time      time.Time // when the message arrived
	Payload   []byte
}

// egEvent is a raw message in the Event Grid schema, and in the custom
// schema (the same object, which subscribers can filter by subject and
// eventType).
type egEvent struct {
	ID          string          `json:"id"`
	Subject     string          `json:"subject"`
	EventType   string          `json:"eventType"`
	EventTime   string          `json:"eventTime"`
	DataVersion string          `json:"dataVersion"`
	Data        json.RawMessage `json:"data"`
}

// ceEvent is a raw message as a CloudEvent 1.0.
type ceEvent struct {
	SpecVersion     string          `json:"specversion"`
	ID              string          `json:"id"`
	Source          string          `json:"source"`
	Type            string          `json:"type"`
	Subject         string          `json:"subject"`
	Time            string          `json:"time"`
	DataContentType string          `json:"datacontenttype"`
	Data            json.RawMessage `json:"data,omitempty"`
	DataBase64      string          `json:"data_base64,omitempty"`
}

// rawDataVersion is the dataVersion of wrapped Event Grid events.
const rawDataVersion = "1.0"

// wrap renders m as one JSON event object in schema s. The payload is
// embedded as JSON when it is UTF-8 JSON, else base64-encoded (see the
// package documentation).
func wrap(s eventschema.Schema, m rawMessage) []byte {
	isJSON := utf8.Valid(m.Payload) && json.Valid(m.Payload)
	when := m.Time.UTC().Format(time.RFC3339Nano)
	var v any
	if s == eventschema.CloudEvents {
		ce := ceEvent{SpecVersion: "1.0", ID: m.ID, Source: m.Source, Type: m.EventType, Subject: m.Subject, Time: when}
		if isJSON {
			ce.DataContentType, ce.Data = "application/json", m.Payload
		} else {
			ce.DataContentType, ce.DataBase64 = "application/octet-stream", base64.StdEncoding.EncodeToString(m.Payload)
		}
		v = ce
	} else {
		eg := egEvent{ID: m.ID, Subject: m.Subject, EventType: m.EventType, EventTime: when, DataVersion: rawDataVersion, Data: m.Payload}
		if !isJSON {
			eg.Data, _ = json.Marshal(base64.StdEncoding.EncodeToString(m.Payload))
		}
		v = eg
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // cannot fail: strings and valid JSON only
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// newID returns a random (version 4) UUID.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:], b[10:])
	return string(out[:])
}
