package eventschema

import (
	"bytes"
	"encoding/json"
	"errors"
)

// DefaultMaxEventSize is the largest event accepted: 1 MB, the module's documented
// per-event limit (concepts.md: "Each event should still not be greater than 1 MB").
const DefaultMaxEventSize = 1 << 20

// Shape says whether a body must be a JSON array of events, one event object, or either.
type Shape uint8

// Body shapes.
const (
	// ShapeArray: a JSON array of events (POST /topics/{t}/events).
	ShapeArray Shape = iota
	// ShapeObject: one event object (POST /topics/{t}/events/{id}, application/cloudevents+json).
	ShapeObject
	// ShapeAny: an array or a single object (MQTT ingest; CloudEvents topics with application/json).
	ShapeAny
)

// Options tune a parse.
type Options struct {
	// Topic is the topic the events are published to. Event Grid events whose topic
	// property is set must name it; delivered Event Grid events carry it.
	Topic string
	// Shape is the expected body shape.
	Shape Shape
	// MaxEventSize bounds one event's size in bytes; 0 means DefaultMaxEventSize.
	MaxEventSize int
}

func (o Options) maxEventSize() int {
	if o.MaxEventSize <= 0 {
		return DefaultMaxEventSize
	}
	return o.MaxEventSize
}

// Parse decodes and validates a publish body in the given schema. It returns all
// events or none: the first bad event makes it return a *ParseError.
func Parse(s Schema, body []byte, o Options) ([]*Event, error) {
	elems, err := splitBody(body, o.Shape)
	if err != nil {
		return nil, err
	}
	p := newParser(s, o)
	events := make([]*Event, len(elems))
	for i, el := range elems {
		ev, perr := p.parse(i, el)
		if perr != nil {
			return nil, perr
		}
		if ev.Size() > o.maxEventSize() {
			return nil, &ParseError{Index: i, Kind: ErrTooLarge,
				Message: "Event " + itoa(i) + " is larger than the maximum event size of " + itoa(o.maxEventSize()) + " bytes."}
		}
		events[i] = ev
	}
	return events, nil
}

// splitBody checks the body's shape and returns its event objects as
// sub-slices of body: the whole body is validated once, then walked without
// copying.
func splitBody(body []byte, shape Shape) ([][]byte, error) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return nil, bodyError(ErrEmpty, "The request body is empty; expected %s.", shapeText(shape))
	}
	if !json.Valid(trimmed) {
		return nil, invalidJSON(trimmed)
	}
	switch isArray := trimmed[0] == '['; {
	case isArray && shape == ShapeObject:
		return nil, bodyError(ErrInvalidEvent, "The request body must be a single JSON object, not an array.")
	case !isArray && shape == ShapeArray && trimmed[0] == '{':
		return nil, bodyError(ErrInvalidEvent, "The request body must be a JSON array of events, even for a single event.")
	case !isArray && trimmed[0] != '{':
		return nil, bodyError(ErrInvalidEvent, "The request body must be %s.", shapeText(shape))
	case !isArray:
		return [][]byte{trimmed}, nil
	}
	var elems [][]byte
	elements(trimmed, func(el []byte) { elems = append(elems, el) })
	if len(elems) == 0 {
		return nil, bodyError(ErrEmpty, "The request contains no events.")
	}
	return elems, nil
}

func shapeText(s Shape) string {
	switch s {
	case ShapeObject:
		return "a JSON object"
	case ShapeAny:
		return "a JSON object or an array of JSON objects"
	default:
		return "a JSON array of events"
	}
}

// invalidJSON reports where the JSON syntax breaks.
func invalidJSON(body []byte) *ParseError {
	var v any
	err := json.Unmarshal(body, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return bodyError(ErrInvalidJSON, "The request body is not valid JSON: %s (at byte %d).", se.Error(), se.Offset)
	}
	return bodyError(ErrInvalidJSON, "The request body is not valid JSON.")
}

// parser holds what every event of one request shares.
type parser struct {
	schema   Schema
	topic    string
	topicTok []byte // the topic as a JSON string token
}

func newParser(s Schema, o Options) *parser {
	tok, _ := json.Marshal(o.Topic)
	return &parser{schema: s, topic: o.Topic, topicTok: tok}
}

func (p *parser) parse(i int, el []byte) (*Event, *ParseError) {
	if len(el) == 0 || el[0] != '{' {
		return nil, eventError(i, "", "must be a JSON object.")
	}
	switch p.schema {
	case CloudEvents:
		return parseCloudEvent(i, el)
	case Custom:
		return parseCustom(i, el)
	default:
		return p.parseEventGrid(i, el)
	}
}
