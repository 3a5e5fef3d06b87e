package mqttingest_test

import (
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
	"github.com/edgegrid/edgegrid/mqttingest"
)

// TestResyncReconnectsWithoutTraffic: a resync on a quiet connection is
// noticed at once. paho takes a locally closed socket for its own
// Disconnect and would otherwise sit on it until keep-alive (30 s) failed,
// leaving the deferred messages with the MQTT broker all that time.
func TestResyncReconnectsWithoutTraffic(t *testing.T) {
	e := newEnv(t, broker.Config{})
	e.topic("telemetry", eventschema.EventGrid)
	in := e.start(mqttingest.Route{Filter: "t/#", Topic: "telemetry"})

	in.Resync()
	testenv.Eventually(t, 10*time.Second, "reconnected", func() bool {
		return e.logs.count("connected to the MQTT broker") >= 2 && in.Stats().Subscribed
	})
	if n := e.logs.count(mqttingest.ErrResync.Error()); n != 1 {
		t.Errorf("the loss was logged %d times with the resync cause, want once:\n%s", n, e.logs)
	}
	if s := in.Stats(); s.Resyncs != 1 || !s.Connected {
		t.Errorf("stats after resync %+v", s)
	}
}
