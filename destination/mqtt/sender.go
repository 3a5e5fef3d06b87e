package mqtt

import (
	"context"
	"time"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/eventschema"
)

// sender publishes one subscription's deliveries to its topic.
type sender struct {
	f     *Factory
	topic string
}

var _ destination.Sender = (*sender)(nil)

// Send publishes the events as one JSON array with QoS 1 and waits for the
// PUBACK, the publish timeout or ctx, whichever comes first. It never blocks
// when there is no connection: it answers Retry at once.
func (s *sender) Send(ctx context.Context, d *destination.Delivery) destination.Result {
	begin := time.Now()
	res := s.f.publish(ctx, s.topic, eventschema.AppendBatch(nil, d.Events))
	res.Duration = time.Since(begin)
	return res
}

// Close does nothing: the connection belongs to the Factory.
func (*sender) Close() error { return nil }

// publish sends body and classifies the outcome.
func (f *Factory) publish(ctx context.Context, topic string, body []byte) destination.Result {
	epoch := f.epoch.Load()
	if f.closed.Load() || !f.client.IsConnectionOpen() {
		return retry("SocketError", ErrNotConnected)
	}
	tok := f.client.Publish(topic, 1, false, body)
	timer := time.NewTimer(f.opts.PublishTimeout)
	defer timer.Stop()
	select {
	case <-tok.Done():
	case <-ctx.Done():
		return destination.Classify(0, ctx.Err())
	case <-timer.C:
		return retry("TimedOut", ErrNoAck)
	}
	switch {
	case tok.Error() != nil:
		return retry("SocketError", tok.Error())
	case f.epoch.Load() != epoch:
		// A token that completes across a reconnect proves nothing about
		// the PUBACK (paho completes tokens it resends); we do not resend,
		// but keep the guard: at least once, never "maybe".
		return retry("SocketError", ErrReconnected)
	}
	return destination.Result{Outcome: destination.Delivered, Reason: "Delivered"}
}

func retry(reason string, err error) destination.Result {
	return destination.Result{Outcome: destination.Retry, Reason: reason, Err: err}
}
