package edgehub

import (
	"errors"
	"sync"
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/eventschema"
)

// Ingest bounds, with their reasons.
const (
	// maxQueued bounds input messages waiting for the broker. edgeHub keeps at
	// most ~16 unacknowledged messages per client, so this is never reached
	// against edgeHub; it only guards memory against a misbehaving peer.
	maxQueued = 64
	// busyBackoff and maxBusyBackoff pace retries while the broker is over its
	// memory cap: short enough to resume promptly, doubling to spare the CPU.
	busyBackoff    = 50 * time.Millisecond
	maxBusyBackoff = 2 * time.Second
)

// inMsg is a module input message waiting for the broker.
type inMsg struct {
	input   string
	payload []byte
	ack     func()
}

// ingest is a FIFO of input messages and the one worker that publishes them
// to the broker in order, acknowledging each once the broker has accepted or
// definitively refused it.
type ingest struct {
	c    *Client
	mu   sync.Mutex
	q    []inMsg
	wake chan struct{}
}

func newIngest(c *Client) *ingest { return &ingest{c: c, wake: make(chan struct{}, 1)} }

// push queues m; false when the queue is full (m is then not acknowledged).
func (in *ingest) push(m inMsg) bool {
	in.mu.Lock()
	if len(in.q) >= maxQueued {
		in.mu.Unlock()
		return false
	}
	in.q = append(in.q, m)
	in.mu.Unlock()
	select {
	case in.wake <- struct{}{}:
	default:
	}
	return true
}

func (in *ingest) pop() (inMsg, bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if len(in.q) == 0 {
		return inMsg{}, false
	}
	m := in.q[0]
	in.q[0] = inMsg{}
	in.q = in.q[1:]
	return m, true
}

// run is the worker; it returns when the client closes.
func (in *ingest) run() {
	defer in.c.wg.Done()
	for {
		m, ok := in.pop()
		if !ok {
			select {
			case <-in.wake:
				continue
			case <-in.c.ctx.Done():
				return
			}
		}
		if !in.publish(m) {
			return
		}
	}
}

// publish hands m to the broker, waiting while it is busy. It returns false
// when the client or the broker is shutting down; m is then left
// unacknowledged for edgeHub to send again after the restart.
func (in *ingest) publish(m inMsg) bool {
	c := in.c
	topic := c.topicFor(m.input)
	wait := busyBackoff
	for {
		_, err := c.b.PublishJSON(topic, m.payload, eventschema.ShapeAny)
		switch {
		case err == nil:
			c.accepted.Add(1)
			m.ack()
			return true
		case errors.Is(err, broker.ErrBusy):
			if !c.sleep(wait) {
				return false
			}
			wait = min(2*wait, maxBusyBackoff)
		case errors.Is(err, broker.ErrShuttingDown):
			return false
		default:
			c.dropped(dropCause(err), m.input, err)
			m.ack()
			return true
		}
	}
}

// dropCause names why the broker refused an input message for good.
func dropCause(err error) string {
	var pe *eventschema.ParseError
	switch {
	case errors.Is(err, broker.ErrTopicNotFound):
		return "no topic for this input"
	case errors.As(err, &pe) && errors.Is(pe, eventschema.ErrInvalidJSON):
		return "not valid JSON"
	case errors.As(err, &pe) && errors.Is(pe, eventschema.ErrTooLarge):
		return "event too large"
	case errors.As(err, &pe):
		return "invalid event for the topic's input schema"
	default:
		return "refused by the broker"
	}
}

// topicFor maps an input name to its Event Grid topic.
func (c *Client) topicFor(input string) string {
	if t, ok := c.opts.InputRoutes[input]; ok {
		return t
	}
	return input
}

// sleep waits d on the client's clock; false when the client closed first.
func (c *Client) sleep(d time.Duration) bool {
	done := make(chan struct{})
	stop := c.opts.Clock.AfterFunc(d, func() { close(done) })
	defer stop()
	select {
	case <-done:
		return true
	case <-c.ctx.Done():
		return false
	}
}

// dropped counts an input message acknowledged without being published and
// logs its cause once per interval with the count so far.
func (c *Client) dropped(cause, subject string, err error) {
	n, log := c.drops.note(cause+": "+subject, c.opts.Clock.Now())
	if !log {
		return
	}
	ev := c.log.Warn().Str("cause", cause).Str("input", subject).Int64("count", n)
	if err != nil {
		ev = ev.Err(err)
	}
	ev.Msg("edgeHub input message dropped (acknowledged, not published); logged once a minute per cause")
}
