package broker

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/filter"
	"github.com/edgegrid/edgegrid/retry"
)

// subState is the part of a subscription that an update replaces at once.
// Deliveries read it at the start of each attempt.
type subState struct {
	cfg       SubscriptionConfig
	filter    *filter.Filter
	sender    destination.Sender
	policy    retry.Policy
	maxEvents int // 1: batching off
	maxBytes  int
	// sink receives dead-letter events (nil: dropped events are only logged).
	sink deadLetterSink
	// dlSender is the validated dead-letter WebHook sender, until install makes
	// the sink from it.
	dlSender destination.Sender
}

// subscription is a subscription's runtime: its queues and delivery goroutines.
type subscription struct {
	b     *Broker
	topic *topic
	name  string
	state atomic.Pointer[subState]

	q     readyQueue
	sched *retry.Scheduler[*delivery]
	stats SubscriptionStats

	ctx    context.Context // canceled when the subscription closes
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// failures counts consecutive failed attempts; delayed is set once they reach
	// delayAfterFailures and cleared by the next success.
	failures atomic.Int32
	delayed  atomic.Bool
	// closeOnce guards close.
	closeOnce sync.Once
}

func (b *Broker) newSubscription(t *topic, st *subState) *subscription {
	s := &subscription{b: b, topic: t, name: st.cfg.Name}
	s.state.Store(st)
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.q.max = b.cfg.DeliveryConcurrency
	s.q.start = func() {
		s.wg.Add(1)
		go s.run()
	}
	s.sched = retry.NewScheduler(b.clock, s.retryDue)
	return s
}

// buildState compiles a configuration into a runnable state.
func (b *Broker) buildState(cfg SubscriptionConfig) (*subState, error) {
	st := &subState{cfg: cfg}
	if cfg.Filter != nil {
		f, err := filter.Compile(*cfg.Filter)
		if err != nil {
			return nil, wrap(ErrInvalidFilter, err)
		}
		st.filter = f
	}
	sender, err := b.newSender(&st.cfg.Destination)
	if err != nil {
		return nil, err
	}
	st.sender = sender
	st.policy = b.policyFor(cfg.RetryPolicy)
	st.maxEvents, st.maxBytes = cfg.batchLimits(&b.cfg)
	if err := b.validateDeadLetter(st); err != nil {
		_ = st.sender.Close()
		return nil, err
	}
	return st, nil
}

func (b *Broker) policyFor(rp *RetryPolicy) retry.Policy {
	p := retry.Policy{MaxAttempts: b.cfg.DefaultMaxDeliveryAttempts, TTL: b.cfg.DefaultEventTTL}
	if rp == nil {
		return p
	}
	if rp.MaxDeliveryAttempts != nil {
		p.MaxAttempts = *rp.MaxDeliveryAttempts
	}
	if rp.EventExpiryInMinutes != nil {
		p.TTL = time.Duration(*rp.EventExpiryInMinutes) * time.Minute
	}
	return p
}

// retryDue moves a delivery whose back-off is over to the ready queue.
func (s *subscription) retryDue(d *delivery) {
	if !s.q.push(*d) {
		s.lose(*d)
	}
}

// close stops the subscription: in-flight attempts are canceled, goroutines
// waited for, and every event still held is released and counted as lost.
func (s *subscription) close() int {
	lost := 0
	s.closeOnce.Do(func() {
		left := s.q.close()
		s.cancel()
		s.wg.Wait()
		for _, d := range s.sched.Close() {
			left = append(left, *d)
		}
		for _, d := range left {
			lost += d.len()
			s.lose(d)
		}
		st := s.state.Load()
		_ = st.sender.Close()
		if st.sink != nil {
			if n := st.sink.close(); n > 0 {
				s.b.log.Warn().Str("topic", s.topic.name).Str("subscription", s.name).Int("events", n).
					Msg("dead-letter events lost")
			}
		}
	})
	return lost
}

// lose releases a delivery's events without delivering them (shutdown, deletion).
func (s *subscription) lose(d delivery) {
	s.stats.Lost.Add(int64(d.len()))
	d.each(s.b.done)
}

// depth reports the events waiting in the ready, 1-minute and 10-minute queues.
func (s *subscription) depth() (ready, oneMinute, tenMinutes int) {
	one, ten := s.sched.Len()
	return s.q.Len(), one, ten
}
