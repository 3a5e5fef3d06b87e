package eventschema

import "encoding/json"

// WithTopic returns the delivered form of an Event Grid event with its topic
// property replaced by topic (a JSON token: a string, or null to null it out),
// as forwarding to cloud Event Grid requires.
func WithTopic(ev *Event, topic json.RawMessage) ([]byte, error) {
	var w egWire
	if err := json.Unmarshal(ev.Raw, &w); err != nil {
		return nil, err
	}
	p := &parser{topicTok: topic}
	return p.encodeEventGrid(&w), nil
}
