package eventschema

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"time"
)

// DeadLetterInfo explains why delivery of an event ended.
type DeadLetterInfo struct {
	// Reason is the deadLetterReason: MaxDeliveryAttemptsExceeded,
	// TimeToLiveExceeded, or the refusing status (BadRequest, Forbidden...).
	Reason string
	// Attempts is how many delivery attempts were made.
	Attempts int
	// LastOutcome is the lastDeliveryOutcome (NotFound, TimedOut, Busy...).
	LastOutcome string
	// PublishTime is when the event was accepted.
	PublishTime time.Time
	// LastAttemptTime is when the last attempt was made (zero: never attempted).
	LastAttemptTime time.Time
	// Topic is the topic the event was published to (custom events' envelope).
	Topic string
}

// DeadLetter returns the dead-lettered form of ev, in the shapes cloud Event
// Grid documents (delivery-and-retry.md):
//   - Event Grid schema: the event with deadLetterReason, deliveryAttempts,
//     lastDeliveryOutcome, publishTime and lastDeliveryAttemptTime added;
//   - CloudEvents: the event with the lower-case extension attributes
//     deadletterreason, deliveryattempts, lastdeliveryoutcome and publishtime;
//   - custom: an Event Grid envelope whose data is the original event.
func DeadLetter(ev *Event, s Schema, info DeadLetterInfo) *Event {
	var raw []byte
	switch s {
	case CloudEvents:
		raw = appendMembers(ev.Raw, [][2]string{
			{"deadletterreason", quote(info.Reason)}, {"deliveryattempts", strconv.Itoa(info.Attempts)},
			{"lastdeliveryoutcome", quote(info.LastOutcome)}, {"publishtime", quote(stamp(info.PublishTime))}})
	case Custom:
		return deadLetterCustom(ev, info)
	default:
		raw = appendMembers(ev.Raw, deadLetterMembers(info))
	}
	return &Event{Raw: raw, ID: ev.ID, Subject: ev.Subject, Type: ev.Type, DataVersion: ev.DataVersion}
}

func deadLetterMembers(info DeadLetterInfo) [][2]string {
	last := "null"
	if !info.LastAttemptTime.IsZero() {
		last = quote(stamp(info.LastAttemptTime))
	}
	return [][2]string{
		{"deadLetterReason", quote(info.Reason)}, {"deliveryAttempts", strconv.Itoa(info.Attempts)},
		{"lastDeliveryOutcome", quote(info.LastOutcome)}, {"publishTime", quote(stamp(info.PublishTime))},
		{"lastDeliveryAttemptTime", last}}
}

func deadLetterCustom(ev *Event, info DeadLetterInfo) *Event {
	id := newID()
	typ := ev.Type
	if typ == "" {
		typ = "Edgegrid.CustomEvent"
	}
	env := `{"id":` + quote(id) + `,"eventTime":` + quote(stamp(info.PublishTime)) + `,"eventType":` + quote(typ) +
		`,"dataVersion":"1.0","metadataVersion":"1","topic":` + quote(info.Topic) + `,"subject":` + quote(ev.Subject) + `}`
	raw := appendMembers([]byte(env), deadLetterMembers(info))
	raw = appendMembers(raw, [][2]string{{"data", string(ev.Raw)}})
	return &Event{Raw: raw, ID: id, Subject: ev.Subject, Type: typ, DataVersion: "1.0"}
}

// appendMembers adds "name":value members (values are JSON text) to a JSON object.
func appendMembers(obj []byte, members [][2]string) []byte {
	end := len(obj) - 1
	for end > 0 && obj[end] != '}' {
		end--
	}
	out := make([]byte, 0, len(obj)+128)
	out = append(out, obj[:end]...)
	empty := isEmptyObject(obj[:end])
	for i, m := range members {
		if i > 0 || !empty {
			out = append(out, ',')
		}
		out = append(out, quote(m[0])...)
		out = append(out, ':')
		out = append(out, m[1]...)
	}
	return append(out, '}')
}

func isEmptyObject(prefix []byte) bool {
	for _, c := range prefix {
		switch c {
		case '{', ' ', '\t', '\n', '\r':
		default:
			return false
		}
	}
	return true
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// newID returns a random UUID (version 4) for envelopes edgegrid creates.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// NewID returns a random UUID for events edgegrid creates itself.
func NewID() string { return newID() }
