package edgehub

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/rs/zerolog"

	ehdest "github.com/edgegrid/edgegrid/destination/edgehub"
)

// Client is the module's one connection to edgeHub: it publishes module
// output messages for EdgeHub subscriptions, turns module input messages into
// events, and applies the module twin's desired properties. Create it with
// New, start it with Start and stop it with Close; all methods are safe for
// concurrent use.
type Client struct {
	opts Options
	log  zerolog.Logger
	b    Broker

	ctx    context.Context // canceled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mb       *mailbox
	in       *ingest
	tw       *twin
	sess     atomic.Pointer[session] // the current session; nil before the first
	sessions atomic.Uint64           // session ids

	accepted atomic.Int64
	connects atomic.Int64
	drops    causeLog // input messages dropped, by cause
	causes   causeLog // connection failures, by reason

	startOnce, closeOnce sync.Once
}

var _ ehdest.Publisher = (*Client)(nil)

// New checks the options; it does not connect.
func New(o Options) (*Client, error) {
	o.setDefaults()
	if err := o.validate(); err != nil {
		return nil, err
	}
	c := &Client{opts: o, log: o.Logger.With().Str("component", "edgeHub").Logger(), mb: newMailbox()}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	c.in = newIngest(c)
	c.tw = newTwin(c)
	return c, nil
}

// Start connects in the background and returns at once: while edgeHub is
// unreachable the module serves HTTP and delivers elsewhere as usual. Input
// messages are published to b and the twin manages b's topics and
// subscriptions. Start after Close does nothing.
func (c *Client) Start(b Broker) {
	c.startOnce.Do(func() {
		if c.ctx.Err() != nil {
			return
		}
		c.b = b
		c.wg.Add(2)
		go c.run()
		go c.in.run()
	})
}

// Close disconnects and waits for the client's goroutines until ctx ends.
// Input messages not yet acknowledged are sent again by edgeHub after the
// next connection. Close is idempotent.
func (c *Client) Close(ctx context.Context) error {
	c.closeOnce.Do(func() { c.startOnce.Do(func() {}); c.cancel() })
	done := make(chan struct{})
	go func() { c.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return errors.New("edgehub: close timed out: " + ctx.Err().Error())
	}
}

// Connected reports whether the connection to edgeHub is open.
func (c *Client) Connected() bool { return c.sess.Load().open() }

// Stats are the connection's counters.
type Stats struct {
	// Connects counts successful connections (first and later).
	Connects int64
	// InputsAccepted counts input messages published to the broker.
	InputsAccepted int64
	// InputsDropped counts input messages acknowledged without being
	// published, by "cause: input".
	InputsDropped map[string]int64
}

// Stats returns the counters so far.
func (c *Client) Stats() Stats {
	return Stats{Connects: c.connects.Load(), InputsAccepted: c.accepted.Load(), InputsDropped: c.drops.snapshot()}
}
