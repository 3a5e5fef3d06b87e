package mqtt_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/destination/mqtt"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

func newBroker(t *testing.T, f destination.Factory, clock *testenv.ManualClock) *broker.Broker {
	t.Helper()
	b, err := broker.New(broker.Config{}, broker.WithClock(clock), broker.WithFactory(destination.Mqtt, f))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		b.Shutdown(ctx)
	})
	if _, _, err := b.PutTopic(broker.TopicConfig{Name: "t", Schema: eventschema.Custom}); err != nil {
		t.Fatal(err)
	}
	return b
}

func mqttSubscription(topic string) broker.SubscriptionConfig {
	return broker.SubscriptionConfig{Name: "s", Topic: "t", DeliverySchema: eventschema.Custom,
		Destination: destination.Endpoint{Type: destination.Mqtt, MqttTopic: topic}}
}

// TestRetryWhileDisconnected: through the broker, an event published while
// the MQTT broker is down waits in the one-minute retry queue and is
// delivered on the next attempt after the MQTT broker is back.
func TestRetryWhileDisconnected(t *testing.T) {
	mq := testenv.StartMQTTBroker(t)
	f, err := mqtt.NewFactory(mqtt.Options{URL: mq.URL(), ClientID: "edgegrid-pub", ReconnectMax: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	clock := testenv.NewManualClock()
	b := newBroker(t, f, clock)
	if _, _, err := b.PutSubscription(mqttSubscription("events/out")); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 10*time.Second, "connected", f.Connected)
	mq.Stop()
	testenv.Eventually(t, 10*time.Second, "disconnected", func() bool { return !f.Connected() })

	evs, err := eventschema.Parse(eventschema.Custom, []byte(`[{"n":1}]`), eventschema.Options{Topic: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Publish("t", evs); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 5*time.Second, "in the one-minute queue", func() bool {
		st, _ := b.SubscriptionStatus("t", "s")
		return st.OneMinute == 1
	})
	mq.Restart()
	got := mq.Capture("events/#")
	testenv.Eventually(t, 15*time.Second, "reconnected", f.Connected)
	clock.Advance(time.Minute)
	testenv.Eventually(t, 5*time.Second, "delivered", func() bool { return len(got.Messages()) == 1 })
	if p := string(got.Messages()[0].Payload); p != `[{"n":1}]` {
		t.Errorf("payload %s", p)
	}
	st, _ := b.SubscriptionStatus("t", "s")
	if st.Stats.Delivered.Load() != 1 || st.Stats.FailedAttempts.Load() != 1 {
		t.Errorf("delivered %d, failed attempts %d", st.Stats.Delivered.Load(), st.Stats.FailedAttempts.Load())
	}
}

// TestSubscriptionValidation: the broker refuses bad Mqtt topics, and every
// Mqtt subscription when no MQTT broker is configured.
func TestSubscriptionValidation(t *testing.T) {
	mq := testenv.StartMQTTBroker(t)
	f, err := mqtt.NewFactory(mqtt.Options{URL: mq.URL(), ClientID: "edgegrid-pub"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	b := newBroker(t, f, testenv.NewManualClock())
	if _, _, err := b.PutSubscription(mqttSubscription("events/+")); !errors.Is(err, broker.ErrInvalidDestination) {
		t.Errorf("wildcard topic: %v", err)
	}
	off := newBroker(t, mqtt.Disabled{}, testenv.NewManualClock())
	_, _, err = off.PutSubscription(mqttSubscription("events/out"))
	if !errors.Is(err, broker.ErrInvalidDestination) || !strings.Contains(err.Error(), "mqtt__url") {
		t.Errorf("without an MQTT broker: %v", err)
	}
}
