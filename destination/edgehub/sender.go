package edgehub

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/eventschema"
)

// DefaultTimeout bounds one delivery: edgeHub's acknowledgement must arrive
// within it, as a webhook's answer must ("waits up to 60 seconds").
const DefaultTimeout = 60 * time.Second

// Publisher is the edgeHub connection as EdgeHub senders use it. It must be
// safe for concurrent use.
type Publisher interface {
	// PublishOutput sends payload as one message on the module output and
	// returns nil once edgeHub acknowledged it (PUBACK: edgeHub has stored
	// it), ctx.Err() when ctx ends first, or the transport's error. When no
	// connection is open it returns ErrNotConnected at once, without sending.
	PublishOutput(ctx context.Context, output string, payload []byte) error
	// MaxPayload is the largest payload PublishOutput accepts for output.
	MaxPayload(output string) int
}

// Factory creates EdgeHub senders that share one Publisher.
type Factory struct {
	pub     Publisher
	timeout time.Duration
}

var _ destination.Factory = (*Factory)(nil)

// NewFactory delivers through pub; timeout bounds one delivery (0: DefaultTimeout).
func NewFactory(pub Publisher, timeout time.Duration) *Factory {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &Factory{pub: pub, timeout: timeout}
}

// Validate checks the endpoint.
func (f *Factory) Validate(ep *destination.Endpoint) error { return ValidateEndpoint(ep) }

// New returns a sender for a validated endpoint.
func (f *Factory) New(ep *destination.Endpoint) (destination.Sender, error) {
	if err := f.Validate(ep); err != nil {
		return nil, err
	}
	return &Sender{f: f, output: ep.OutputName}, nil
}

// Sender delivers to one module output.
type Sender struct {
	f      *Factory
	output string
}

var _ destination.Sender = (*Sender)(nil)

// Send publishes the events as a JSON array, the body a webhook gets. A
// delivery larger than one edgeHub message is split into several arrays, sent
// in order; it counts as delivered when all were acknowledged (a retry sends
// all of them again). An event that alone exceeds the limit can never be
// delivered and is dropped.
func (s *Sender) Send(ctx context.Context, d *destination.Delivery) destination.Result {
	start := time.Now()
	chunks, err := split(d.Events, s.f.pub.MaxPayload(s.output))
	if err != nil {
		return destination.Result{Outcome: destination.Drop, Reason: "PayloadTooLarge", Err: err}
	}
	ctx, cancel := context.WithTimeout(ctx, s.f.timeout)
	defer cancel()
	for _, c := range chunks {
		if err := s.f.pub.PublishOutput(ctx, s.output, eventschema.AppendBatch(nil, c)); err != nil {
			r := classify(err)
			r.Duration = time.Since(start)
			return r
		}
	}
	return destination.Result{Outcome: destination.Delivered, Reason: "Delivered", Duration: time.Since(start)}
}

// Close has nothing to release; the connection belongs to the Publisher.
func (s *Sender) Close() error { return nil }

func classify(err error) destination.Result {
	if errors.Is(err, ErrNotConnected) {
		return notConnected()
	}
	return destination.Classify(0, err)
}

// split cuts events into runs whose JSON array fits in limit bytes.
func split(events []*eventschema.Event, limit int) ([][]*eventschema.Event, error) {
	var out [][]*eventschema.Event
	start, size := 0, 2 // the brackets
	for i, ev := range events {
		if 2+ev.Size() > limit {
			return nil, fmt.Errorf("%w: event '%s' is %d bytes; an edgeHub message holds at most %d", ErrTooLarge, ev.ID, ev.Size(), limit-2)
		}
		add := ev.Size()
		if i > start {
			add++ // the comma
		}
		if size+add > limit {
			out = append(out, events[start:i])
			start, size, add = i, 2, ev.Size()
		}
		size += add
	}
	if start < len(events) {
		out = append(out, events[start:])
	}
	return out, nil
}
