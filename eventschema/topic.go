package eventschema

import (
	"encoding/json"
	"errors"
)

// WithTopic returns the delivered form of an Event Grid event with its topic
// property replaced by topic (a JSON token: a string, or null to null it out),
// as forwarding to cloud Event Grid requires.
func WithTopic(ev *Event, topic json.RawMessage) ([]byte, error) {
	if !json.Valid(ev.Raw) {
		return nil, errors.New("eventschema: event is not valid JSON")
	}
	w := decodeEventGrid(ev.Raw)
	p := &parser{topicTok: topic}
	return p.encodeEventGrid(&w).Raw, nil
}
