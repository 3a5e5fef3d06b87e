package broker

import (
	"context"
	"fmt"
	"sort"

	"github.com/edgegrid/edgegrid/destination"
)

// PutTopic creates a topic or confirms an existing one. An existing topic's input
// schema cannot change (delete and recreate it). It reports whether it created one.
func (b *Broker) PutTopic(cfg TopicConfig) (TopicConfig, bool, error) {
	b.mu.Lock()
	if t, ok := b.topics[key(cfg.Name)]; ok {
		b.mu.Unlock()
		if t.schema != cfg.Schema {
			return t.config(), false, fmt.Errorf("%w: topic '%s' has input schema %s; delete it and create it again to use %s",
				ErrSchemaChange, t.name, t.schema, cfg.Schema)
		}
		return t.config(), false, nil
	}
	t := newTopic(cfg)
	b.topics[key(cfg.Name)] = t
	b.mu.Unlock()
	b.log.Info().Str("topic", cfg.Name).Str("inputSchema", cfg.Schema.String()).Msg("topic created")
	b.persist()
	return t.config(), true, nil
}

// Topic returns a topic's definition.
func (b *Broker) Topic(name string) (TopicConfig, error) {
	t, err := b.topic(name)
	if err != nil {
		return TopicConfig{}, err
	}
	return t.config(), nil
}

func (b *Broker) topic(name string) (*topic, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	t, ok := b.topics[key(name)]
	if !ok {
		return nil, fmt.Errorf("%w: topic '%s' does not exist", ErrTopicNotFound, name)
	}
	return t, nil
}

// Topics lists every topic, sorted by name.
func (b *Broker) Topics() []TopicConfig {
	b.mu.RLock()
	out := make([]TopicConfig, 0, len(b.topics))
	for _, t := range b.topics {
		out = append(out, t.config())
	}
	b.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return key(out[i].Name) < key(out[j].Name) })
	return out
}

// DeleteTopic removes a topic and all its subscriptions; their undelivered
// events are released and counted as lost.
func (b *Broker) DeleteTopic(name string) error {
	b.mu.Lock()
	t, ok := b.topics[key(name)]
	if !ok {
		b.mu.Unlock()
		return fmt.Errorf("%w: topic '%s' does not exist", ErrTopicNotFound, name)
	}
	delete(b.topics, key(name))
	subs := t.subscriptions()
	t.setSubscriptions(nil)
	b.mu.Unlock()
	for _, s := range subs {
		b.logLoss(s, s.close(), "topic deleted")
	}
	b.log.Info().Str("topic", t.name).Int("subscriptions", len(subs)).Msg("topic deleted")
	b.persist()
	return nil
}

// PutOption tunes PutSubscription.
type PutOption func(*putOptions)

type putOptions struct{ handshake context.Context }

// WithHandshake runs the destination's validation handshake, when the endpoint
// asks for one, before the subscription is installed (API calls do; restoring
// saved definitions does not).
func WithHandshake(ctx context.Context) PutOption {
	return func(o *putOptions) { o.handshake = ctx }
}

// PutSubscription creates a subscription or updates an existing one in place: its
// queued events stay and later attempts use the new settings. It reports whether
// it created one.
func (b *Broker) PutSubscription(cfg SubscriptionConfig, opts ...PutOption) (SubscriptionConfig, bool, error) {
	var o putOptions
	for _, f := range opts {
		f(&o)
	}
	t, err := b.topic(cfg.Topic)
	if err != nil {
		return SubscriptionConfig{}, false, err
	}
	cfg.Topic = t.name
	if cfg.DeliverySchema != t.schema {
		return SubscriptionConfig{}, false, fmt.Errorf("%w: topic '%s' has input schema %s but eventDeliverySchema is %s",
			ErrSchemaMismatch, t.name, t.schema, cfg.DeliverySchema)
	}
	st, err := b.buildState(cfg)
	if err != nil {
		return SubscriptionConfig{}, false, err
	}
	if err := b.handshake(o.handshake, st, t); err != nil {
		_ = st.sender.Close()
		return SubscriptionConfig{}, false, err
	}
	created, err := b.install(t, st)
	if err != nil {
		_ = st.sender.Close()
		return SubscriptionConfig{}, false, err
	}
	b.persist()
	return st.cfg, created, nil
}

// install adds st to t or swaps it into the existing subscription of that name.
func (b *Broker) install(t *topic, st *subState) (bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if cur, ok := b.topics[key(t.name)]; !ok || cur != t {
		return false, fmt.Errorf("%w: topic '%s' does not exist", ErrTopicNotFound, t.name)
	}
	subs := t.subscriptions()
	for _, s := range subs {
		if key(s.name) != key(st.cfg.Name) {
			continue
		}
		old := s.state.Load()
		if !samePersistence(old.cfg.Persisted, st.cfg.Persisted) {
			return false, fmt.Errorf("%w: subscription '%s' was created with a different persistencePolicy; delete it and create it again",
				ErrPersistenceChange, s.name)
		}
		st.cfg.Name = s.name
		retired := b.attachSink(st, old)
		s.state.Store(st)
		_ = old.sender.Close()
		if retired != nil && retired != st.sink {
			b.logLoss(s, retired.close(), "dead-letter destination changed")
		}
		b.log.Info().Str("topic", t.name).Str("subscription", s.name).Msg("event subscription updated")
		return false, nil
	}
	b.attachSink(st, nil)
	s := b.newSubscription(t, st)
	next := append(append([]*subscription(nil), subs...), s)
	t.setSubscriptions(next)
	b.log.Info().Str("topic", t.name).Str("subscription", s.name).
		Str("endpointType", string(st.cfg.Destination.Type)).Msg("event subscription created")
	return true, nil
}

// handshake runs the endpoint's validation handshake when asked to.
func (b *Broker) handshake(ctx context.Context, st *subState, t *topic) error {
	ep := &st.cfg.Destination
	if ctx == nil || !ep.Handshake {
		return nil
	}
	h, ok := b.factories[ep.Type].(destination.Handshaker)
	if !ok {
		return nil
	}
	info := destination.HandshakeInfo{Subscription: st.cfg.Name, Topic: t.name, Schema: st.cfg.DeliverySchema}
	if err := h.Handshake(ctx, ep, info); err != nil {
		return wrap(ErrInvalidDestination, err)
	}
	return nil
}

func samePersistence(a, b *bool) bool {
	return (a != nil && *a) == (b != nil && *b)
}

// Subscription returns one subscription's definition.
func (b *Broker) Subscription(topicName, name string) (SubscriptionConfig, error) {
	s, err := b.subscription(topicName, name)
	if err != nil {
		return SubscriptionConfig{}, err
	}
	return s.state.Load().cfg, nil
}

func (b *Broker) subscription(topicName, name string) (*subscription, error) {
	t, err := b.topic(topicName)
	if err != nil {
		return nil, err
	}
	for _, s := range t.subscriptions() {
		if key(s.name) == key(name) {
			return s, nil
		}
	}
	return nil, fmt.Errorf("%w: event subscription '%s' does not exist on topic '%s'", ErrSubscriptionNotFound, name, t.name)
}

// Subscriptions lists a topic's subscriptions, sorted by name.
func (b *Broker) Subscriptions(topicName string) ([]SubscriptionConfig, error) {
	t, err := b.topic(topicName)
	if err != nil {
		return nil, err
	}
	subs := t.subscriptions()
	out := make([]SubscriptionConfig, 0, len(subs))
	for _, s := range subs {
		out = append(out, s.state.Load().cfg)
	}
	sort.Slice(out, func(i, j int) bool { return key(out[i].Name) < key(out[j].Name) })
	return out, nil
}

// DeleteSubscription removes a subscription; its undelivered events are released
// and counted as lost.
func (b *Broker) DeleteSubscription(topicName, name string) error {
	b.mu.Lock()
	t, ok := b.topics[key(topicName)]
	if !ok {
		b.mu.Unlock()
		return fmt.Errorf("%w: topic '%s' does not exist", ErrTopicNotFound, topicName)
	}
	var victim *subscription
	var rest []*subscription
	for _, s := range t.subscriptions() {
		if key(s.name) == key(name) {
			victim = s
			continue
		}
		rest = append(rest, s)
	}
	if victim == nil {
		b.mu.Unlock()
		return fmt.Errorf("%w: event subscription '%s' does not exist on topic '%s'", ErrSubscriptionNotFound, name, t.name)
	}
	t.setSubscriptions(rest)
	b.mu.Unlock()
	b.logLoss(victim, victim.close(), "event subscription deleted")
	b.log.Info().Str("topic", t.name).Str("subscription", victim.name).Msg("event subscription deleted")
	b.persist()
	return nil
}

func (b *Broker) logLoss(s *subscription, lost int, why string) {
	if lost > 0 {
		b.log.Warn().Str("topic", s.topic.name).Str("subscription", s.name).Int("events", lost).
			Str("reason", why).Msg("undelivered events discarded")
	}
}
