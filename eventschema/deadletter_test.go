package eventschema

import (
	"encoding/json"
	"testing"
	"time"
)

func TestDeadLetterShapes(t *testing.T) {
	pub := time.Date(2020, 8, 13, 17, 18, 14, 26575800, time.UTC)
	last := pub.Add(20 * time.Millisecond)
	info := DeadLetterInfo{Reason: "MaxDeliveryAttemptsExceeded", Attempts: 1, LastOutcome: "NotFound", PublishTime: pub, LastAttemptTime: last, Topic: "t"}

	eg, _ := Parse(EventGrid, []byte(`[{"id":"9","subject":"s","eventType":"E","eventTime":"x","dataVersion":"","data":{"a":1}}]`), Options{Topic: "t"})
	var got map[string]any
	if err := json.Unmarshal(DeadLetter(eg[0], EventGrid, info).Raw, &got); err != nil {
		t.Fatal(err)
	}
	if got["deadLetterReason"] != "MaxDeliveryAttemptsExceeded" || got["deliveryAttempts"] != float64(1) || got["lastDeliveryOutcome"] != "NotFound" ||
		got["publishTime"] != "2020-08-13T17:18:14.0265758Z" || got["lastDeliveryAttemptTime"] != "2020-08-13T17:18:14.0465758Z" || got["id"] != "9" {
		t.Fatalf("Event Grid dead letter %v", got)
	}

	ce, _ := Parse(CloudEvents, []byte(`{"id":"c","source":"mysource","type":"fooEventType","specversion":"1.0","data":{"prop1":"value1"}}`), Options{Shape: ShapeObject})
	got = nil
	if err := json.Unmarshal(DeadLetter(ce[0], CloudEvents, info).Raw, &got); err != nil {
		t.Fatal(err)
	}
	if got["deadletterreason"] != "MaxDeliveryAttemptsExceeded" || got["deliveryattempts"] != float64(1) || got["source"] != "mysource" || got["publishtime"] == nil {
		t.Fatalf("CloudEvents dead letter %v", got)
	}
	if _, err := Parse(CloudEvents, DeadLetter(ce[0], CloudEvents, info).Raw, Options{Shape: ShapeObject}); err != nil {
		t.Fatalf("dead-lettered CloudEvent is not a valid CloudEvent: %v", err)
	}

	cu, _ := Parse(Custom, []byte(`[{"prop1":"my property","prop2":5,"eventType":"fooEventType"}]`), Options{})
	dl := DeadLetter(cu[0], Custom, info)
	got = nil
	if err := json.Unmarshal(dl.Raw, &got); err != nil {
		t.Fatal(err)
	}
	data, _ := got["data"].(map[string]any)
	if got["eventType"] != "fooEventType" || got["topic"] != "t" || data["prop2"] != float64(5) || got["deadLetterReason"] == nil || len(got["id"].(string)) != 36 {
		t.Fatalf("custom dead letter %v", got)
	}
}

func TestDeadLetterNeverAttempted(t *testing.T) {
	eg, _ := Parse(Custom, []byte(`[{}]`), Options{})
	raw := DeadLetter(eg[0], EventGrid, DeadLetterInfo{Reason: "TimeToLiveExceeded"}).Raw
	var got map[string]any
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	if v, ok := got["lastDeliveryAttemptTime"]; !ok || v != nil {
		t.Fatalf("lastDeliveryAttemptTime %v", v)
	}
}
