package testenv

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// cloudRequired are the properties every event must carry, per input schema
// (Event Grid: the publish API's required fields; CloudEvents 1.0: the
// required context attributes).
var cloudRequired = map[string][]string{
	CloudEventGridSchema:   {"id", "subject", "eventType", "eventTime", "dataVersion"},
	CloudCloudEventsSchema: {"id", "source", "type", "specversion"},
}

// checkBody validates a publish body: a non-empty JSON array of objects, each
// valid for the schema.
func checkBody(schema string, body []byte) *cloudError {
	var events []map[string]json.RawMessage
	if err := json.Unmarshal(body, &events); err != nil {
		return badBody("The request body must be a JSON array of event objects: " + err.Error())
	}
	if len(events) == 0 {
		return badBody("The request body must contain at least one event.")
	}
	for i, ev := range events {
		if ev == nil {
			return badBody("Event " + strconv.Itoa(i) + " is not an object.")
		}
		if e := checkEvent(schema, i, ev); e != nil {
			return e
		}
	}
	return nil
}

func checkEvent(schema string, i int, ev map[string]json.RawMessage) *cloudError {
	at := "Event " + strconv.Itoa(i) + ": "
	for _, name := range cloudRequired[schema] {
		var s string
		if json.Unmarshal(ev[name], &s) != nil || s == "" {
			return badBody(at + "required property '" + name + "' is missing or not a non-empty string.")
		}
	}
	switch schema {
	case CloudEventGridSchema:
		var t string
		_ = json.Unmarshal(ev["eventTime"], &t)
		if _, err := time.Parse(time.RFC3339Nano, t); err != nil {
			return badBody(at + "eventTime '" + t + "' is not an ISO 8601 date and time.")
		}
		if raw, ok := ev["topic"]; ok && string(raw) != "null" {
			var s string
			if json.Unmarshal(raw, &s) != nil {
				return badBody(at + "topic must be a string or null.")
			}
		}
	case CloudCloudEventsSchema:
		var v string
		_ = json.Unmarshal(ev["specversion"], &v)
		if v != "1.0" {
			return badBody(at + "specversion '" + v + "' is not supported; use 1.0.")
		}
	}
	return nil
}

func badBody(msg string) *cloudError {
	return &cloudError{http.StatusBadRequest, "BadRequest", msg}
}

// Events returns every event of the accepted requests, in arrival order,
// each as its raw JSON object.
func (c *CloudEventGrid) Events() []json.RawMessage {
	var out []json.RawMessage
	for _, r := range c.Accepted() {
		var evs []json.RawMessage
		_ = json.Unmarshal(r.Body, &evs) // accepted bodies are valid arrays
		out = append(out, evs...)
	}
	return out
}
