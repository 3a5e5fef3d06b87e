package eventschema

// Event is one accepted event. It is immutable once returned by a parser and may be
// shared by every subscription it fans out to. Nobody may modify Raw: the
// envelope strings may share its memory.
type Event struct {
	// Raw is the JSON object delivered to subscribers.
	Raw []byte
	// ID is the event id (Event Grid "id", CloudEvents "id"); empty for custom events.
	ID string
	// Subject is the Event Grid or CloudEvents subject; for custom events the
	// top-level "subject" string when there is one.
	Subject string
	// Type is the Event Grid eventType or CloudEvents type; for custom events the
	// top-level "eventType" string when there is one.
	Type string
	// DataVersion is the Event Grid dataVersion (sent as aeg-data-version).
	DataVersion string
}

// Size is the number of bytes the event occupies on the wire.
func (e *Event) Size() int { return len(e.Raw) }
