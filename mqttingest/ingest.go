package mqttingest

import (
	"context"
	"sync"
	"sync/atomic"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/ratelog"
)

// Ingest is one MQTT client feeding the broker. Build it with New, then
// Start it once and Close it once; Stats may be called at any time.
type Ingest struct {
	opts   Options
	pub    Publisher
	log    zerolog.Logger
	client paho.Client
	q      *queue

	refusals  *ratelog.Logger // messages refused or lost, by cause
	transient *ratelog.Logger // passing conditions: failed connection attempts, busy broker, full queue

	conn      atomic.Pointer[resyncConn] // the current connection (see resync)
	connected chan struct{}              // one slot: "(re)connected, subscribe"
	stop      chan struct{}              // closed by Close: the session loop ends
	abandon   chan struct{}              // closed when Close's context ends
	closing   atomic.Bool                // handlers take no more messages
	deferred  atomic.Bool                // QoS 1 messages left unacknowledged: resync when drained

	started   atomic.Bool
	closeOnce sync.Once
	workers   sync.WaitGroup
	session   sync.WaitGroup

	stats counters
}

// counters are the Ingest's statistics.
type counters struct {
	received, published, refused, retained atomic.Int64
	busy, deferred, dropped, abandoned     atomic.Int64
	reconnects                             atomic.Int64
	up, subscribed                         atomic.Bool
}

// Stats is a snapshot of an Ingest's counters.
type Stats struct {
	Received   int64 // messages the MQTT broker delivered
	Published  int64 // messages a topic accepted (one per target topic)
	Refused    int64 // messages a topic refused for good, or with no route: acknowledged and dropped
	Retained   int64 // retained messages replayed on subscribe: acknowledged and skipped
	Busy       int64 // offers the broker answered ErrBusy (each retry counts)
	Deferred   int64 // QoS 1 messages left unacknowledged because the queue was full
	Dropped    int64 // QoS 0 messages lost: queue full, or still queued at Close
	Abandoned  int64 // QoS 1 messages left unacknowledged at Close (the MQTT broker keeps them)
	Resyncs    int64 // reconnects forced so the MQTT broker resends deferred messages
	Queued     int   // messages waiting in the queue now
	Connected  bool  // the connection is up
	Subscribed bool  // the routes' subscriptions are acknowledged on this connection
	// Refusals counts refused and dropped messages by cause.
	Refusals map[string]int64
}

// Stats returns the current counters.
func (in *Ingest) Stats() Stats {
	c := &in.stats
	return Stats{
		Received: c.received.Load(), Published: c.published.Load(), Refused: c.refused.Load(),
		Retained: c.retained.Load(), Busy: c.busy.Load(), Deferred: c.deferred.Load(),
		Dropped: c.dropped.Load(), Abandoned: c.abandoned.Load(), Resyncs: c.reconnects.Load(),
		Queued: in.q.len(), Connected: c.up.Load(), Subscribed: c.subscribed.Load(),
		Refusals: in.refusals.Counts(),
	}
}

// New checks the options and prepares the client; it does not connect.
func New(opts Options, pub Publisher) (*Ingest, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	opts.setDefaults()
	log := opts.Logger.With().Str("component", "mqttingest").Logger()
	in := &Ingest{
		opts: opts, pub: pub, log: log,
		q:         newQueue(opts.QueueMessages, opts.QueueBytes),
		refusals:  ratelog.New(log, opts.SummaryInterval, ratelog.WithClock(opts.Clock)),
		transient: ratelog.New(log, opts.SummaryInterval, ratelog.WithClock(opts.Clock)),
		connected: make(chan struct{}, 1),
		stop:      make(chan struct{}),
		abandon:   make(chan struct{}),
	}
	in.client = paho.NewClient(in.clientOptions())
	return in, nil
}

// Start connects in the background and starts the workers; it returns at
// once. It does nothing after the first call or after Close.
func (in *Ingest) Start() {
	if in.closing.Load() || !in.started.CompareAndSwap(false, true) {
		return
	}
	for range in.opts.Workers {
		in.workers.Add(1)
		go in.work()
	}
	in.session.Add(1)
	go in.runSession()
	in.log.Info().Str("url", in.opts.URL).Str("clientId", in.opts.ClientID).Int("routes", len(in.opts.Routes)).
		Msg("connecting to the MQTT broker")
	in.client.Connect() // completes in the background (ConnectRetry)
}

// Close stops taking messages, lets the workers finish the queued ones until
// ctx ends, then disconnects. What is still unacknowledged stays with the
// MQTT broker, which sends it again on the next connection. It returns
// ctx.Err() when the workers had to be abandoned. Idempotent.
func (in *Ingest) Close(ctx context.Context) error {
	var err error
	in.closeOnce.Do(func() { err = in.shutdown(ctx) })
	return err
}

func (in *Ingest) shutdown(ctx context.Context) error {
	in.closing.Store(true)
	close(in.stop)
	in.q.close()
	done := make(chan struct{})
	go func() { in.workers.Wait(); close(done) }()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = ctx.Err()
		close(in.abandon)
		<-done
	}
	in.session.Wait()
	for _, it := range in.q.drain() {
		in.leave(it)
	}
	in.client.Disconnect(disconnectQuiesce)
	in.stats.up.Store(false)
	in.refusals.Close()
	in.transient.Close()
	s := in.Stats()
	in.log.Info().Int64("received", s.Received).Int64("published", s.Published).Int64("refused", s.Refused).
		Int64("leftUnacknowledged", s.Abandoned).Int64("droppedQoS0", s.Dropped).Msg("MQTT ingest stopped")
	return err
}

// leave gives up on an item at shutdown without acknowledging it.
func (in *Ingest) leave(it *item) {
	if it.msg.Qos() == 0 {
		in.stats.dropped.Add(1)
		return
	}
	in.stats.abandoned.Add(1)
}
