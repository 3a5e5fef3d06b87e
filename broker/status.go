package broker

import "sort"

// SubscriptionStatus is a live view of one subscription for metrics and tests.
type SubscriptionStatus struct {
	Topic, Name string
	// Ready, OneMinute and TenMinutes are the deliveries waiting in the ready
	// queue and in the two retry queues.
	Ready, OneMinute, TenMinutes int
	// Delayed is true while the subscription is in delayed delivery.
	Delayed bool
	Stats   *SubscriptionStats
}

// TopicStatus is a live view of one topic.
type TopicStatus struct {
	Name  string
	Stats *TopicStats
}

// SubscriptionStatus returns one subscription's live view.
func (b *Broker) SubscriptionStatus(topicName, name string) (SubscriptionStatus, error) {
	s, err := b.subscription(topicName, name)
	if err != nil {
		return SubscriptionStatus{}, err
	}
	return s.status(), nil
}

func (s *subscription) status() SubscriptionStatus {
	r, one, ten := s.depth()
	return SubscriptionStatus{Topic: s.topic.name, Name: s.name, Ready: r, OneMinute: one, TenMinutes: ten,
		Delayed: s.delayed.Load(), Stats: &s.stats}
}

// Statuses returns every topic and subscription view, sorted by name.
func (b *Broker) Statuses() ([]TopicStatus, []SubscriptionStatus) {
	b.mu.RLock()
	var ts []TopicStatus
	var ss []SubscriptionStatus
	for _, t := range b.topics {
		ts = append(ts, TopicStatus{Name: t.name, Stats: &t.stats})
		for _, s := range t.subscriptions() {
			ss = append(ss, s.status())
		}
	}
	b.mu.RUnlock()
	sort.Slice(ts, func(i, j int) bool { return key(ts[i].Name) < key(ts[j].Name) })
	sort.Slice(ss, func(i, j int) bool {
		if key(ss[i].Topic) != key(ss[j].Topic) {
			return key(ss[i].Topic) < key(ss[j].Topic)
		}
		return key(ss[i].Name) < key(ss[j].Name)
	})
	return ts, ss
}

// TopicStats returns a topic's counters (the API layer records request outcomes in them).
func (b *Broker) TopicStats(name string) (*TopicStats, error) {
	t, err := b.topic(name)
	if err != nil {
		return nil, err
	}
	return &t.stats, nil
}
