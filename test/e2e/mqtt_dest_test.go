package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/internal/testenv"
)

// TestMqttDestination: an event published over HTTP reaches a real MQTT
// subscriber (mosquitto_sub) through a subscription with endpointType Mqtt.
func TestMqttDestination(t *testing.T) {
	t.Parallel()
	mos := testenv.StartMosquitto(t)
	m := startModule(t, "mqtt__url="+mos.URL(), "mqtt__clientId=e2e-dest")
	sub := mos.Subscribe(t, "edge/events")
	testenv.Eventually(t, 15*time.Second, "the Mqtt destination connected", func() bool {
		return len(m.LogLines("Mqtt destination connected to the MQTT broker")) > 0
	})
	m.must("PUT", m.HTTPURL+"/topics/orders"+q, `{"properties":{"inputSchema":"CustomEventSchema"}}`)
	m.must("PUT", m.HTTPURL+"/topics/orders/eventSubscriptions/tomqtt"+q,
		`{"properties":{"destination":{"endpointType":"Mqtt","properties":{"topic":"edge/events"}}}}`)
	m.must("POST", m.HTTPURL+"/topics/orders/events"+q, `[{"order":1}]`)
	if line := sub.Next(t); line != `edge/events [{"order":1}]` {
		t.Errorf("mosquitto_sub printed %q", line)
	}
	status, body := m.call("PUT", m.HTTPURL+"/topics/orders/eventSubscriptions/bad"+q,
		`{"properties":{"destination":{"endpointType":"Mqtt","properties":{"topic":"edge/#"}}}}`)
	if status != 400 || !strings.Contains(body, "must not contain '+' or '#'") {
		t.Errorf("wildcard topic: %d %s", status, body)
	}
}

// TestMqttDestinationNeedsBroker: without mqtt__url, Mqtt subscriptions are
// refused with a message naming the setting.
func TestMqttDestinationNeedsBroker(t *testing.T) {
	t.Parallel()
	m := startModule(t)
	m.must("PUT", m.HTTPURL+"/topics/orders"+q, `{"properties":{"inputSchema":"CustomEventSchema"}}`)
	status, body := m.call("PUT", m.HTTPURL+"/topics/orders/eventSubscriptions/tomqtt"+q,
		`{"properties":{"destination":{"endpointType":"Mqtt","properties":{"topic":"edge/events"}}}}`)
	if status != 400 || !strings.Contains(body, "set mqtt__url") {
		t.Errorf("got %d %s", status, body)
	}
}
