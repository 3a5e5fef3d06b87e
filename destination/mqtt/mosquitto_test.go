package mqtt_test

import (
	"context"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/destination/mqtt"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

// TestMosquittoSubscriberReceives: mosquitto_sub, a real client, receives
// what the Mqtt destination publishes through Debian's mosquitto; while
// mosquitto is down the destination answers Retry, and after its restart
// it delivers again.
func TestMosquittoSubscriberReceives(t *testing.T) {
	mos := testenv.StartMosquitto(t)
	sub := mos.Subscribe(t, "events/out")
	f, err := mqtt.NewFactory(mqtt.Options{URL: mos.URL(), ClientID: "edgegrid-pub", ReconnectMax: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	s, err := f.New(&destination.Endpoint{Type: destination.Mqtt, MqttTopic: "events/out"})
	if err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 10*time.Second, "connected", f.Connected)
	if res := s.Send(context.Background(), delivery("a", "b")); res.Outcome != destination.Delivered {
		t.Fatalf("Send = %+v", res)
	}
	if line := sub.Next(t); line != `events/out [{"id":"a"},{"id":"b"}]` {
		t.Errorf("mosquitto_sub printed %q", line)
	}

	mos.Stop()
	testenv.Eventually(t, 10*time.Second, "disconnected", func() bool { return !f.Connected() })
	if res := s.Send(context.Background(), delivery("c")); res.Outcome != destination.Retry {
		t.Errorf("Send while mosquitto is down = %+v", res)
	}
	mos.Start()
	testenv.Eventually(t, 15*time.Second, "reconnected", f.Connected)
	if res := s.Send(context.Background(), delivery("d")); res.Outcome != destination.Delivered {
		t.Fatalf("Send after the restart = %+v", res)
	}
	// mosquitto may send the first message again after its restart (its
	// PUBACK from mosquitto_sub can be lost in the stop): at least once.
	for line := sub.Next(t); line != `events/out [{"id":"d"}]`; line = sub.Next(t) {
		if line != `events/out [{"id":"a"},{"id":"b"}]` {
			t.Fatalf("mosquitto_sub printed %q after the restart", line)
		}
	}
}
