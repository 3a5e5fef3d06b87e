package mqtt_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/destination/mqtt"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

// TestSendDelivers: the body is the JSON array a webhook would get,
// published with QoS 1 to the endpoint's topic.
func TestSendDelivers(t *testing.T) {
	mq := testenv.StartMQTTBroker(t)
	got := mq.Capture("events/#")
	_, s := newFactory(t, mq, nil)
	res := s.Send(context.Background(), delivery("a", "b"))
	if res.Outcome != destination.Delivered || res.Reason != "Delivered" || res.Duration <= 0 {
		t.Fatalf("Send = %+v", res)
	}
	testenv.Eventually(t, 5*time.Second, "message captured", func() bool { return len(got.Messages()) == 1 })
	m := got.Messages()[0]
	if m.Topic != "events/out" || string(m.Payload) != `[{"id":"a"},{"id":"b"}]` || m.QoS != 1 {
		t.Errorf("captured %+v (%s)", m, m.Payload)
	}
}

// TestSendWithoutConnection answers Retry at once, and delivers again once
// the broker is back.
func TestSendWithoutConnection(t *testing.T) {
	mq := testenv.StartMQTTBroker(t)
	f, s := newFactory(t, mq, nil)
	mq.Stop()
	testenv.Eventually(t, 10*time.Second, "disconnected", func() bool { return !f.Connected() })
	begin := time.Now()
	res := s.Send(context.Background(), delivery("a"))
	if res.Outcome != destination.Retry || !errors.Is(res.Err, mqtt.ErrNotConnected) || res.Reason != "SocketError" {
		t.Errorf("Send while disconnected = %+v", res)
	}
	if d := time.Since(begin); d > 100*time.Millisecond {
		t.Errorf("Send blocked %v without a connection", d)
	}
	mq.Restart()
	got := mq.Capture("events/#")
	testenv.Eventually(t, 15*time.Second, "reconnected", f.Connected)
	if res := s.Send(context.Background(), delivery("b")); res.Outcome != destination.Delivered {
		t.Fatalf("Send after reconnect = %+v", res)
	}
	testenv.Eventually(t, 5*time.Second, "message captured", func() bool { return len(got.Messages()) == 1 })
}

// TestSendTimeout: no PUBACK within the publish timeout is Retry/TimedOut;
// a cancelled context is Retry/Canceled.
func TestSendTimeout(t *testing.T) {
	mq := testenv.StartMQTTBroker(t)
	_, s := newFactory(t, mq, func(o *mqtt.Options) { o.PublishTimeout = 200 * time.Millisecond })
	mq.HoldAcks()
	defer mq.ReleaseAcks()
	res := s.Send(context.Background(), delivery("a"))
	if res.Outcome != destination.Retry || res.Reason != "TimedOut" || !errors.Is(res.Err, mqtt.ErrNoAck) {
		t.Errorf("Send without PUBACK = %+v", res)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	if res := s.Send(ctx, delivery("b")); res.Outcome != destination.Retry || res.Reason != "Canceled" {
		t.Errorf("Send with a cancelled context = %+v", res)
	}
}

// TestSendAfterClose answers Retry.
func TestSendAfterClose(t *testing.T) {
	mq := testenv.StartMQTTBroker(t)
	f, s := newFactory(t, mq, nil)
	f.Close()
	f.Close()
	if res := s.Send(context.Background(), delivery("a")); res.Outcome != destination.Retry {
		t.Errorf("Send after Close = %+v", res)
	}
}
