package eventschema

import "strings"

// Schema is an event schema: a topic's input schema or a subscription's delivery schema.
type Schema uint8

// The three schemas, in the order of the original SDK's InputSchema enum.
const (
	EventGrid   Schema = iota // "EventGridSchema"
	Custom                    // "CustomEventSchema"
	CloudEvents               // "CloudEventSchemaV1_0"
)

// String returns the schema's name as the REST API reports it.
func (s Schema) String() string {
	switch s {
	case Custom:
		return "CustomEventSchema"
	case CloudEvents:
		return "CloudEventSchemaV1_0"
	default:
		return "EventGridSchema"
	}
}

// schemaNames maps lower-cased accepted spellings to schemas. CustomSchema and
// CloudEventSchema are the names event-schemas.md and api.md's examples use.
var schemaNames = map[string]Schema{
	"eventgridschema":      EventGrid,
	"customeventschema":    Custom,
	"customschema":         Custom,
	"cloudeventschemav1_0": CloudEvents,
	"cloudeventschema":     CloudEvents,
}

// ParseSchema parses a schema name case-insensitively, accepting the aliases the
// original documentation used.
func ParseSchema(name string) (Schema, bool) {
	s, ok := schemaNames[strings.ToLower(strings.TrimSpace(name))]
	return s, ok
}

// SchemaNames lists the canonical names, for error messages.
const SchemaNames = "EventGridSchema, CustomEventSchema, CloudEventSchemaV1_0"
