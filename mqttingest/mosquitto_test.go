package mqttingest_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
	"github.com/edgegrid/edgegrid/mqttingest"
)

// mosquittoEnv is env with Debian's mosquitto in place of the embedded broker.
func mosquittoEnv(t *testing.T) (*env, *testenv.Mosquitto) {
	t.Helper()
	mos := testenv.StartMosquitto(t)
	e := newEnv(t, broker.Config{})
	e.mq.Stop() // the embedded broker is not used here
	e.opts.URL = mos.URL()
	return e, mos
}

func pub(t *testing.T, mos *testenv.Mosquitto, args ...string) {
	t.Helper()
	if out, err := mos.Pub(args...).CombinedOutput(); err != nil {
		t.Fatalf("mosquitto_pub %q: %v\n%s", args, err, out)
	}
}

// TestMosquittoJSONAndRaw: mosquitto_pub publishes JSON events and a binary
// file; they arrive as events.
func TestMosquittoJSONAndRaw(t *testing.T) {
	e, mos := mosquittoEnv(t)
	tele := e.topic("telemetry", eventschema.EventGrid)
	raw := e.topic("raw", eventschema.CloudEvents)
	e.start(mqttingest.Route{Filter: "sensors/+/telemetry", Topic: "telemetry"},
		mqttingest.Route{Filter: "blobs/#", Topic: "raw", EventType: "Contoso.Blob"})
	pub(t, mos, "-q", "1", "-t", "sensors/s1/telemetry", "-m", egEvent("m1"))
	blob := filepath.Join(t.TempDir(), "blob")
	if err := os.WriteFile(blob, []byte{0, 1, 2, 0xfe}, 0o600); err != nil {
		t.Fatal(err)
	}
	pub(t, mos, "-q", "1", "-t", "blobs/cam1", "-f", blob)
	if got := waitEvents(t, tele, 1); got[0]["id"] != "m1" {
		t.Errorf("telemetry %v", got)
	}
	if got := waitEvents(t, raw, 1); got[0]["data_base64"] != "AAEC/g==" || got[0]["subject"] != "blobs/cam1" {
		t.Errorf("raw %v", got)
	}
}

// TestMosquittoPersistentSession: messages published while the ingest is
// away, across a mosquitto restart, are delivered when it comes back with
// the same client id; and a running ingest resubscribes after a restart.
func TestMosquittoPersistentSession(t *testing.T) {
	e, mos := mosquittoEnv(t)
	tele := e.topic("telemetry", eventschema.EventGrid)
	route := mqttingest.Route{Filter: "t/#", Topic: "telemetry"}
	first := e.start(route)
	if err := first.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"away1", "away2", "away3"} {
		pub(t, mos, "-q", "1", "-t", "t/x", "-m", egEvent(id))
	}
	mos.Restart()
	in := e.start(route)
	got, dups := ids(waitEvents(t, tele, 3))
	if !got["away1"] || !got["away2"] || !got["away3"] || dups != 0 {
		t.Errorf("after the restart: %v (%d duplicates)", got, dups)
	}
	mos.Restart()
	testenv.Eventually(t, 15*time.Second, "resubscribed after the restart", func() bool {
		return in.Stats().Subscribed && e.logs.count("connected to the MQTT broker") >= 3
	})
	pub(t, mos, "-q", "1", "-t", "t/x", "-m", egEvent("live"))
	if got, _ := ids(waitEvents(t, tele, 4)); !got["live"] {
		t.Errorf("live message missing: %v", got)
	}
}
