package eventschema

import "strings"

// egWire is an Event Grid event as published: each field is the raw JSON of a
// property (nil when absent), a sub-slice of the request body.
type egWire struct {
	ID, Topic, Subject, EventType, EventTime, DataVersion, MetadataVersion, Data []byte
}

// egFields lists the properties in the order of egWire's fields. Names match
// case-insensitively (the .NET SDK sends PascalCase); of repeated names the last wins.
var egFields = [...]string{"id", "topic", "subject", "eventType", "eventTime", "dataVersion", "metadataVersion", "data"}

func decodeEventGrid(el []byte) egWire {
	var w egWire
	dst := [...]*[]byte{&w.ID, &w.Topic, &w.Subject, &w.EventType, &w.EventTime, &w.DataVersion, &w.MetadataVersion, &w.Data}
	members(el, func(key, val []byte) {
		for k, name := range egFields {
			if keyIs(key, name) {
				*dst[k] = val
				return
			}
		}
	})
	return w
}

// egRequired lists the required string properties in delivery order.
var egRequired = [...]string{"id", "subject", "eventType", "eventTime", "dataVersion"}

func (p *parser) parseEventGrid(i int, el []byte) (*Event, *ParseError) {
	w := decodeEventGrid(el)
	toks := [...][]byte{w.ID, w.Subject, w.EventType, w.EventTime, w.DataVersion}
	for k, tok := range toks {
		switch kindOf(tok) {
		case tokAbsent:
			return nil, eventError(i, egRequired[k], "is required.")
		case tokOther:
			return nil, eventError(i, egRequired[k], "must be a string.")
		}
	}
	if kindOf(w.ID) == tokString && len(w.ID) <= 2 {
		return nil, eventError(i, "id", "must not be empty.")
	}
	if err := p.checkEnvelope(i, &w); err != nil {
		return nil, err
	}
	return p.encodeEventGrid(&w), nil
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

// encodeEventGrid builds the delivered form: camelCase names, topic stamped
// with the topic name, metadataVersion "1", data only when published. String
// tokens are copied verbatim (they are already valid JSON). Raw is allocated at
// its exact size, and the envelope strings point into it when they need no
// unescaping: a backlogged event then costs one allocation for its bytes.
func (p *parser) encodeEventGrid(w *egWire) *Event {
	parts := [...]struct {
		name string
		tok  []byte
	}{{`{"id":`, w.ID}, {`,"topic":`, p.topicTok}, {`,"subject":`, w.Subject}, {`,"eventType":`, w.EventType},
		{`,"eventTime":`, w.EventTime}, {`,"dataVersion":`, w.DataVersion}, {`,"metadataVersion":`, metadataVersion1}, {`,"data":`, w.Data}}
	n := 1 // closing brace
	for _, pt := range parts {
		if len(pt.tok) > 0 {
			n += len(pt.name) + len(pt.tok)
		}
	}
	b := make([]byte, 0, n)
	var at [len(parts)]int // offset of each token in b
	for k, pt := range parts {
		if len(pt.tok) == 0 {
			continue
		}
		b = append(b, pt.name...)
		at[k] = len(b)
		b = append(b, pt.tok...)
	}
	b = append(b, '}')
	return &Event{Raw: b, ID: view(b, at[0], len(w.ID)), Subject: view(b, at[2], len(w.Subject)),
		Type: view(b, at[3], len(w.EventType)), DataVersion: view(b, at[5], len(w.DataVersion))}
}

var metadataVersion1 = []byte(`"1"`)
