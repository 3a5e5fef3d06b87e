package eventschema

import (
	"encoding/json"
	"strings"
)

// egWire is an Event Grid event as published. encoding/json matches property
// names case-insensitively, which is what the .NET SDK's PascalCase needs.
type egWire struct {
	ID              json.RawMessage `json:"id"`
	Topic           json.RawMessage `json:"topic"`
	Subject         json.RawMessage `json:"subject"`
	EventType       json.RawMessage `json:"eventType"`
	EventTime       json.RawMessage `json:"eventTime"`
	DataVersion     json.RawMessage `json:"dataVersion"`
	MetadataVersion json.RawMessage `json:"metadataVersion"`
	Data            json.RawMessage `json:"data"`
}

// egRequired lists the required string properties in delivery order.
var egRequired = [...]string{"id", "subject", "eventType", "eventTime", "dataVersion"}

func (p *parser) parseEventGrid(i int, el json.RawMessage) (*Event, *ParseError) {
	var w egWire
	if err := json.Unmarshal(el, &w); err != nil {
		return nil, eventError(i, "", "is not a valid Event Grid event: %s.", err.Error())
	}
	toks := [...]json.RawMessage{w.ID, w.Subject, w.EventType, w.EventTime, w.DataVersion}
	for k, tok := range toks {
		switch kindOf(tok) {
		case tokAbsent:
			return nil, eventError(i, egRequired[k], "is required.")
		case tokOther:
			return nil, eventError(i, egRequired[k], "must be a string.")
		}
	}
	id := unquote(w.ID)
	if id == "" {
		return nil, eventError(i, "id", "must not be empty.")
	}
	if err := p.checkEnvelope(i, &w); err != nil {
		return nil, err
	}
	return &Event{
		Raw:         p.encodeEventGrid(&w),
		ID:          id,
		Subject:     unquote(w.Subject),
		Type:        unquote(w.EventType),
		DataVersion: unquote(w.DataVersion),
	}, nil
}

// checkEnvelope validates the optional topic and metadataVersion properties.
func (p *parser) checkEnvelope(i int, w *egWire) *ParseError {
	switch kindOf(w.Topic) {
	case tokOther:
		return eventError(i, "topic", "must be a string.")
	case tokString:
		if t := unquote(w.Topic); !strings.EqualFold(t, p.topic) {
			return eventError(i, "topic", "is '%s' but the event is published to topic '%s'; omit it or set it to the topic name.", t, p.topic)
		}
	}
	switch kindOf(w.MetadataVersion) {
	case tokOther:
		return eventError(i, "metadataVersion", "must be the string \"1\".")
	case tokString:
		if unquote(w.MetadataVersion) != "1" {
			return eventError(i, "metadataVersion", "must be \"1\" when specified.")
		}
	}
	return nil
}

// encodeEventGrid writes the delivered form: camelCase names, topic stamped with
// the topic name, metadataVersion "1", data only when published. String tokens
// are copied verbatim (they are already valid JSON).
func (p *parser) encodeEventGrid(w *egWire) []byte {
	n := 120 + len(w.ID) + len(p.topicTok) + len(w.Subject) + len(w.EventType) +
		len(w.EventTime) + len(w.DataVersion) + len(w.Data)
	b := make([]byte, 0, n)
	b = append(b, `{"id":`...)
	b = append(b, w.ID...)
	b = append(b, `,"topic":`...)
	b = append(b, p.topicTok...)
	b = append(b, `,"subject":`...)
	b = append(b, w.Subject...)
	b = append(b, `,"eventType":`...)
	b = append(b, w.EventType...)
	b = append(b, `,"eventTime":`...)
	b = append(b, w.EventTime...)
	b = append(b, `,"dataVersion":`...)
	b = append(b, w.DataVersion...)
	b = append(b, `,"metadataVersion":"1"`...)
	if len(w.Data) > 0 {
		b = append(b, `,"data":`...)
		b = append(b, w.Data...)
	}
	return append(b, '}')
}
