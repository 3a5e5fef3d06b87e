package broker

import (
	"fmt"
	"strings"
	"sync"

	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/retry"
)

// Store receives the broker's definitions after every change (metadata
// persistence). Save is called outside the registry lock, serialised, with the
// latest snapshot.
type Store interface {
	Save(Snapshot) error
}

// Snapshot is every topic and subscription definition.
type Snapshot struct {
	Topics        []TopicConfig
	Subscriptions []SubscriptionConfig
}

// Broker is the in-memory event broker. Create it with New; all methods are safe
// for concurrent use.
type Broker struct {
	cfg       Config
	log       zerolog.Logger
	clock     retry.Clock
	factories map[destination.EndpointType]destination.Factory
	store     Store
	mem       memory

	mu      sync.RWMutex
	topics  map[string]*topic // by lower-cased name: names are case-insensitive
	closing bool

	saveMu sync.Mutex
}

// Option customises a Broker.
type Option func(*Broker)

// WithClock sets the clock (tests use a manual one).
func WithClock(c retry.Clock) Option { return func(b *Broker) { b.clock = c } }

// WithLogger sets the logger (default: discard).
func WithLogger(l zerolog.Logger) Option { return func(b *Broker) { b.log = l } }

// WithFactory registers the sender factory for an endpoint type.
func WithFactory(t destination.EndpointType, f destination.Factory) Option {
	return func(b *Broker) { b.factories[t] = f }
}

// WithStore sets where definitions are saved after each change.
func WithStore(s Store) Option { return func(b *Broker) { b.store = s } }

// New builds a broker; cfg zero values take the documented defaults.
func New(cfg Config, opts ...Option) (*Broker, error) {
	cfg.setDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	b := &Broker{
		cfg: cfg, log: zerolog.Nop(), clock: retry.RealClock{},
		factories: map[destination.EndpointType]destination.Factory{},
		topics:    map[string]*topic{},
	}
	b.mem.limit = cfg.MaxBufferedBytes
	for _, o := range opts {
		o(b)
	}
	return b, nil
}

// Config returns the effective configuration.
func (b *Broker) Config() Config { return b.cfg }

// BufferedBytes is the number of event bytes currently held.
func (b *Broker) BufferedBytes() int64 { return b.mem.used.Load() }

func key(name string) string { return strings.ToLower(name) }

func (b *Broker) newSender(ep *destination.Endpoint) (destination.Sender, error) {
	f, ok := b.factories[ep.Type]
	if !ok {
		return nil, wrap(ErrInvalidDestination, fmt.Errorf("%w: endpointType '%s' is not supported here", destination.ErrUnsupportedType, ep.Type))
	}
	s, err := f.New(ep)
	if err != nil {
		return nil, wrap(ErrInvalidDestination, err)
	}
	return s, nil
}

// wrapped joins a broker sentinel with the underlying error, keeping both
// matchable with errors.Is and the underlying message for the caller.
type wrapped struct {
	kind error
	err  error
}

func (w *wrapped) Error() string   { return w.err.Error() }
func (w *wrapped) Unwrap() []error { return []error{w.kind, w.err} }

func wrap(kind, err error) error { return &wrapped{kind: kind, err: err} }

// SetStore attaches the store after definitions were restored from it, and
// saves the current definitions once.
func (b *Broker) SetStore(s Store) {
	b.saveMu.Lock()
	b.store = s
	b.saveMu.Unlock()
	b.persist()
}

// persist hands the current definitions to the store.
func (b *Broker) persist() {
	b.saveMu.Lock()
	defer b.saveMu.Unlock()
	if b.store == nil {
		return
	}
	if err := b.store.Save(b.Snapshot()); err != nil {
		b.log.Error().Err(err).Msg("saving topic and subscription definitions failed; they live in memory only")
	}
}

// Snapshot returns every definition, topics and subscriptions sorted by name.
func (b *Broker) Snapshot() Snapshot {
	var s Snapshot
	for _, t := range b.Topics() {
		s.Topics = append(s.Topics, t)
		subs, _ := b.Subscriptions(t.Name)
		s.Subscriptions = append(s.Subscriptions, subs...)
	}
	return s
}
