package eventschema

import "encoding/json"

// customEnvelope picks the optional top-level properties filters can use.
type customEnvelope struct {
	Subject   json.RawMessage `json:"subject"`
	EventType json.RawMessage `json:"eventType"`
}

// parseCustom accepts any JSON object and keeps it exactly as received.
func parseCustom(i int, el json.RawMessage) (*Event, *ParseError) {
	var env customEnvelope
	if err := json.Unmarshal(el, &env); err != nil {
		return nil, eventError(i, "", "must be a JSON object.")
	}
	ev := &Event{Raw: append([]byte(nil), el...)}
	if kindOf(env.Subject) == tokString {
		ev.Subject = unquote(env.Subject)
	}
	if kindOf(env.EventType) == tokString {
		ev.Type = unquote(env.EventType)
	}
	return ev, nil
}
