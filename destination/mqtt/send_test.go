package mqtt_test

import (
	"context"
	"errors"
	"sync/atomic"
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

// TestLostConnectionFailsInFlightWithoutResend: a publish waiting for its
// PUBACK when the connection drops answers Retry at once (the publish
// timeout here is an hour), and the next connection does not send it again
// behind our back: the retry queues own redelivery.
func TestLostConnectionFailsInFlightWithoutResend(t *testing.T) {
	mq := testenv.StartMQTTBroker(t)
	got := mq.Capture("events/#")
	f, s := newFactory(t, mq, func(o *mqtt.Options) { o.PublishTimeout = time.Hour })
	testenv.Eventually(t, 10*time.Second, "connected", f.Connected)
	info := mq.Server().Info
	before := atomic.LoadInt64(&info.PacketsReceived)
	mq.HoldAcks()
	results := make(chan destination.Result, 1)
	go func() { results <- s.Send(context.Background(), delivery("a")) }()
	testenv.Eventually(t, 10*time.Second, "PUBLISH read by the broker", func() bool {
		return atomic.LoadInt64(&info.PacketsReceived) > before
	})
	cl, ok := mq.Server().Clients.Get("edgegrid-pub")
	if !ok {
		t.Fatal("the broker does not know the client")
	}
	mark := atomic.LoadInt64(&info.PacketsReceived)
	cl.Stop(errors.New("dropped by the test"))
	var res destination.Result
	testenv.Eventually(t, 10*time.Second, "the pending Send answered", func() bool {
		select {
		case res = <-results:
			return true
		default:
			return false
		}
	})
	if res.Outcome != destination.Retry || res.Reason != "SocketError" || errors.Is(res.Err, mqtt.ErrNoAck) {
		t.Errorf("Send across a lost connection = %+v", res)
	}
	mq.ReleaseAcks() // the broker may now route the first attempt: that one copy is fine
	testenv.Eventually(t, 15*time.Second, "reconnected", f.Connected)
	if res := s.Send(context.Background(), delivery("b")); res.Outcome != destination.Delivered {
		t.Fatalf("Send after reconnect = %+v", res)
	}
	testenv.Eventually(t, 5*time.Second, "b captured", func() bool { return countPayload(got, "b") == 1 })
	// Since the drop the broker read the new CONNECT and b's PUBLISH; a
	// third packet would be a resent a (keep-alive pings come after 30 s).
	if n := atomic.LoadInt64(&info.PacketsReceived) - mark; n != 2 {
		t.Errorf("the broker read %d packets after the drop, want 2 (CONNECT, PUBLISH b): a was resent", n)
	}
	if n := countPayload(got, "a"); n > 1 {
		t.Errorf("event a reached subscribers %d times", n)
	}
}

func countPayload(c *testenv.Capture, id string) int {
	n := 0
	for _, m := range c.Messages() {
		if string(m.Payload) == `[{"id":"`+id+`"}]` {
			n++
		}
	}
	return n
}
