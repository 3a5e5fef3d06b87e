package hostconfig

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/edgegrid/edgegrid/mqtttopic"
)

// MQTTRoute maps one MQTT topic filter to an Event Grid topic.
type MQTTRoute struct {
	// Filter is the MQTT topic filter subscribed to, e.g. sensors/+/telemetry.
	Filter string
	// Topic is the Event Grid topic the messages are published to.
	Topic string
	// EventType is set for raw routes: each message's payload is wrapped into
	// one event of this type. Empty: the payload must be a JSON event or
	// array of events in the topic's input schema.
	EventType string
}

// Raw reports whether payloads are wrapped into events.
func (r MQTTRoute) Raw() bool { return r.EventType != "" }

// String renders the route as mqtt__routes spells it.
func (r MQTTRoute) String() string {
	if r.Raw() {
		return r.Filter + "=" + r.Topic + rawMarker + r.EventType
	}
	return r.Filter + "=" + r.Topic
}

// MQTTRoutes is the value of mqtt__routes, in the order given.
//
// Grammar: routes separated by ';'; each route is filter=target, split at
// its first '='; target is an Event Grid topic name, optionally followed by
// ":raw:" and an event type. Blanks around routes and their parts are
// ignored, and so are empty routes (a trailing ';'). So a filter cannot hold
// ';' or '=', nor start or end with a blank; an event type can hold anything
// but ';' and control characters (':' included). Filters follow MQTT's
// wildcard rules, appear once each, and are not shared subscriptions; topic
// names follow the REST API's rule (1-128 letters, digits, '-', '_').
//
//	sensors/+/telemetry=telemetry;alarms/#=alarms
//	sensors/+/raw=telemetry:raw:Contoso.Sensor.Reading
type MQTTRoutes []MQTTRoute

// rawMarker separates a topic from the event type of a raw route.
const rawMarker = ":raw:"

// maxEventTypeLength bounds a raw route's event type.
const maxEventTypeLength = 256

// Decode implements envconfig.Decoder.
func (rs *MQTTRoutes) Decode(v string) error {
	parsed, err := ParseMQTTRoutes(v)
	if err != nil {
		return err
	}
	*rs = parsed
	return nil
}

// String renders the routes as mqtt__routes spells them; parsing the result
// gives the same routes.
func (rs MQTTRoutes) String() string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.String()
	}
	return strings.Join(parts, ";")
}

// ParseMQTTRoutes parses and checks a mqtt__routes value (see MQTTRoutes).
// The error names the first bad route by its position and text.
func ParseMQTTRoutes(v string) (MQTTRoutes, error) {
	var out MQTTRoutes
	seen := map[string]bool{}
	for i, part := range strings.Split(v, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		r, err := parseMQTTRoute(part)
		if err == nil && seen[r.Filter] {
			err = fmt.Errorf("the filter %q appears in more than one route", r.Filter)
		}
		if err != nil {
			return nil, fmt.Errorf("route %d %q: %w", i+1, truncate(part), err)
		}
		seen[r.Filter] = true
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, errorString("no route; expected filter=topic pairs separated by ';'")
	}
	return out, nil
}

// parseMQTTRoute parses one filter=target pair.
func parseMQTTRoute(s string) (MQTTRoute, error) {
	filter, target, ok := strings.Cut(s, "=")
	if !ok {
		return MQTTRoute{}, errorString("expected MQTT-topic-filter=EventGrid-topic")
	}
	r := MQTTRoute{Filter: strings.TrimSpace(filter), Topic: strings.TrimSpace(target)}
	if topic, mode, hasMode := strings.Cut(r.Topic, ":"); hasMode {
		r.Topic = strings.TrimSpace(topic)
		kind, eventType, _ := strings.Cut(mode, ":")
		if !strings.EqualFold(strings.TrimSpace(kind), "raw") {
			return MQTTRoute{}, fmt.Errorf("unknown mode %q after the topic; the only mode is raw (topic:raw:EventType)", kind)
		}
		r.EventType = strings.TrimSpace(eventType)
		if err := checkEventType(r.EventType); err != nil {
			return MQTTRoute{}, err
		}
	}
	if err := mqtttopic.ValidateFilter(r.Filter); err != nil {
		return MQTTRoute{}, fmt.Errorf("invalid MQTT topic filter: %w", err)
	}
	if err := checkTopicName(r.Topic); err != nil {
		return MQTTRoute{}, err
	}
	return r, nil
}

// checkEventType checks a raw route's event type.
func checkEventType(t string) error {
	switch {
	case t == "":
		return errorString("a raw route needs an event type: topic:raw:EventType")
	case len(t) > maxEventTypeLength:
		return fmt.Errorf("the event type is longer than %d bytes", maxEventTypeLength)
	case !utf8.ValidString(t) || strings.IndexFunc(t, unicode.IsControl) >= 0:
		return errorString("the event type must be UTF-8 text without control characters")
	}
	return nil
}

// checkTopicName applies the REST API's rule for topic names
// (resource.ValidateName, which hostconfig cannot import; a test keeps the
// two in step): 1 to 128 characters from A-Z, a-z, 0-9, '-' and '_'.
func checkTopicName(name string) error {
	if name == "" {
		return errorString("the Event Grid topic name is empty")
	}
	if len(name) > maxTopicNameLength {
		return fmt.Errorf("the Event Grid topic name is longer than %d characters", maxTopicNameLength)
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return fmt.Errorf("the Event Grid topic name %q is invalid: only letters, digits, '-' and '_' are allowed", name)
		}
	}
	return nil
}
