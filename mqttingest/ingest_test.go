package mqttingest_test

import (
	"encoding/base64"
	"fmt"
	"testing"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
	"github.com/edgegrid/edgegrid/mqttingest"
)

func egEvent(id string) string {
	return fmt.Sprintf(`{"id":%q,"subject":"s","eventType":"t","eventTime":"2026-01-01T00:00:00Z","dataVersion":"1","data":{"n":1}}`, id)
}

func ceEvent(id string) string {
	return fmt.Sprintf(`{"specversion":"1.0","id":%q,"source":"/sensors","type":"t","data":{"n":1}}`, id)
}

// TestJSONRoutes: JSON payloads (one object or an array) reach their topic in
// each of the three schemas, and every message is acknowledged.
func TestJSONRoutes(t *testing.T) {
	e := newEnv(t, broker.Config{})
	tele := e.topic("telemetry", eventschema.EventGrid)
	alarms := e.topic("alarms", eventschema.CloudEvents)
	custom := e.topic("custom", eventschema.Custom)
	e.start(mqttingest.Route{Filter: "sensors/+/telemetry", Topic: "telemetry"},
		mqttingest.Route{Filter: "alarms/#", Topic: "alarms"}, mqttingest.Route{Filter: "custom", Topic: "custom"})

	e.mq.Publish("sensors/s1/telemetry", []byte(egEvent("e1")), 1, false)
	e.mq.Publish("sensors/s2/telemetry", []byte("["+egEvent("e2")+","+egEvent("e3")+"]"), 1, false)
	e.mq.Publish("alarms/fire/zone1", []byte(ceEvent("c1")), 1, false)
	e.mq.Publish("custom", []byte(`{"anything":["goes"]}`), 0, false)

	if got := waitEvents(t, tele, 3); got[0]["topic"] != "telemetry" || len(got) != 3 {
		t.Errorf("telemetry events %v", got)
	}
	if got := waitEvents(t, alarms, 1); got[0]["id"] != "c1" || got[0]["source"] != "/sensors" {
		t.Errorf("alarms events %v", got)
	}
	if got := waitEvents(t, custom, 1); fmt.Sprint(got[0]["anything"]) != "[goes]" {
		t.Errorf("custom events %v", got)
	}
	e.acked()
	if s := e.in.Stats(); s.Received != 4 || s.Published != 4 || s.Refused != 0 {
		t.Errorf("stats %+v", s)
	}
}

// TestRawRoutes wraps JSON and binary payloads for all three schemas.
func TestRawRoutes(t *testing.T) {
	e := newEnv(t, broker.Config{})
	eg := e.topic("eg", eventschema.EventGrid)
	ce := e.topic("ce", eventschema.CloudEvents)
	cu := e.topic("cu", eventschema.Custom)
	e.start(mqttingest.Route{Filter: "raw/eg/#", Topic: "eg", EventType: "Contoso.Reading"},
		mqttingest.Route{Filter: "raw/ce/#", Topic: "ce", EventType: "Contoso.Reading"},
		mqttingest.Route{Filter: "raw/cu/#", Topic: "cu", EventType: "Contoso.Reading"})
	binary := []byte{0xff, 0x00, 'x'}
	for _, s := range []string{"eg", "ce", "cu"} {
		e.mq.Publish("raw/"+s+"/json", []byte(`{"temp": 21.5}`), 1, false)
		e.mq.Publish("raw/"+s+"/bin", binary, 1, false)
	}
	b64 := base64.StdEncoding.EncodeToString(binary)
	for _, c := range []struct {
		name string
		hook *testenv.Webhook
	}{{"eg", eg}, {"cu", cu}} {
		name := c.name
		got := bySubject(waitEvents(t, c.hook, 2))
		j, b := got["raw/"+name+"/json"], got["raw/"+name+"/bin"]
		if j["eventType"] != "Contoso.Reading" || fmt.Sprint(j["data"]) != "map[temp:21.5]" || j["dataVersion"] != "1.0" || j["id"] == "" {
			t.Errorf("%s JSON payload: %v", name, j)
		}
		if b["data"] != b64 || b["eventTime"] == nil {
			t.Errorf("%s binary payload: %v, want data %q", name, b, b64)
		}
	}
	got := bySubject(waitEvents(t, ce, 2))
	j, b := got["raw/ce/json"], got["raw/ce/bin"]
	if j["type"] != "Contoso.Reading" || j["datacontenttype"] != "application/json" || fmt.Sprint(j["data"]) != "map[temp:21.5]" ||
		j["source"] != "mqtt://"+e.mq.Addr || j["specversion"] != "1.0" {
		t.Errorf("CloudEvents JSON payload: %v", j)
	}
	if b["data_base64"] != b64 || b["datacontenttype"] != "application/octet-stream" || b["data"] != nil {
		t.Errorf("CloudEvents binary payload: %v", b)
	}
	e.acked()
}

// bySubject indexes events by subject.
func bySubject(evs []map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, ev := range evs {
		s, _ := ev["subject"].(string)
		out[s] = ev
	}
	return out
}
