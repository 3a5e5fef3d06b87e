package broker

import (
	"context"
	"time"
)

// Loss is how many events one subscription lost at shutdown.
type Loss struct {
	Topic, Subscription string
	Events              int
}

// Shutdown stops accepting events and keeps delivering until every queue is
// empty or ctx ends. Events waiting in the retry queues get one last attempt
// during the drain instead of waiting out their back-off. Then every
// subscription is closed and what was still undelivered is reported (and logged)
// per subscription. Shutdown is idempotent in effect; later calls report nothing.
func (b *Broker) Shutdown(ctx context.Context) []Loss {
	b.mu.Lock()
	already := b.closing
	b.closing = true
	b.mu.Unlock()
	if already {
		return nil
	}
	subs := b.allSubscriptions()
	for _, s := range subs {
		s.flushRetries()
	}
	b.waitIdle(ctx, subs)
	var losses []Loss
	for _, s := range subs {
		if n := s.close(); n > 0 {
			losses = append(losses, Loss{Topic: s.topic.name, Subscription: s.name, Events: n})
			b.log.Warn().Str("topic", s.topic.name).Str("subscription", s.name).Int("lostEvents", n).
				Msg("undelivered events lost at shutdown (no event persistence)")
		}
	}
	if len(losses) == 0 {
		b.log.Info().Msg("all queued events delivered before shutdown")
	}
	return losses
}

func (b *Broker) allSubscriptions() []*subscription {
	b.mu.RLock()
	defer b.mu.RUnlock()
	var out []*subscription
	for _, t := range b.topics {
		out = append(out, t.subscriptions()...)
	}
	return out
}

// flushRetries moves the retry queues' deliveries to the ready queue.
func (s *subscription) flushRetries() {
	for _, d := range s.sched.Flush() {
		if !s.q.push(*d) {
			s.lose(*d)
		}
	}
	if sink := s.state.Load().sink; sink != nil {
		sink.flush()
	}
}

// waitIdle polls until no subscription has queued or in-flight deliveries.
func (b *Broker) waitIdle(ctx context.Context, subs []*subscription) {
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		idle := true
		for _, s := range subs {
			if sink := s.state.Load().sink; !s.q.idle() || (sink != nil && !sink.idle()) {
				idle = false
				break
			}
		}
		if idle {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
