package broker

import (
	"sort"

	"github.com/edgegrid/edgegrid/destination"
	"sync"
	"sync/atomic"
	"time"
)

// TopicStats are a topic's counters (the original's topic metrics).
type TopicStats struct {
	// EventsReceived counts events accepted for the topic.
	EventsReceived atomic.Int64
	// UnmatchedEvents counts accepted events no subscription matched.
	UnmatchedEvents atomic.Int64
	// SuccessRequests, UserErrorRequests and SystemErrorRequests count publish
	// requests by outcome; PublishLatency is the time to answer successful ones.
	SuccessRequests     atomic.Int64
	UserErrorRequests   atomic.Int64
	SystemErrorRequests atomic.Int64
	PublishLatency      Histogram
}

// SubscriptionStats are a subscription's counters.
type SubscriptionStats struct {
	Matched         atomic.Int64 // events queued for the subscription
	Delivered       atomic.Int64 // events delivered
	Attempts        atomic.Int64 // delivery requests made (success + failure)
	FailedAttempts  atomic.Int64 // failed delivery requests
	Lost            atomic.Int64 // events released undelivered at deletion or shutdown
	Deferred        atomic.Int64 // fresh events sent to the retry queue by delayed delivery
	DeliveryLatency Histogram    // duration of successful requests
	FailureLatency  Histogram    // duration of failed requests
	// FirstAttemptDelay is the time from publishing to the first attempt.
	FirstAttemptDelay Histogram
	// DeadLettered and DeadLetterFailures count events handed to (or lost on the
	// way to) the dead-letter destination.
	DeadLettered       atomic.Int64
	DeadLetterFailures atomic.Int64

	mu      sync.Mutex
	dropped map[string]int64   // by reason
	last    destination.Result // last attempt's result, formatted only when needed
}

func (s *SubscriptionStats) countDrop(reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dropped == nil {
		s.dropped = map[string]int64{}
	}
	s.dropped[reason]++
}

func (s *SubscriptionStats) countDeadLetter(ok bool) {
	if ok {
		s.DeadLettered.Add(1)
	} else {
		s.DeadLetterFailures.Add(1)
	}
}

// Dropped returns the drop counts by reason.
func (s *SubscriptionStats) Dropped() map[string]int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int64, len(s.dropped))
	for k, v := range s.dropped {
		out[k] = v
	}
	return out
}

// setLast records the last attempt's result; it runs once per attempt, so it
// stores the result and formats nothing.
func (s *SubscriptionStats) setLast(r destination.Result) {
	s.mu.Lock()
	s.last = destination.Result{Outcome: r.Outcome, Status: r.Status, Reason: r.Reason}
	s.mu.Unlock()
}

// lastOutcome is the last attempt's lastDeliveryOutcome ("" before any).
func (s *SubscriptionStats) lastOutcome() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last.Reason
}

// Histogram counts durations in fixed millisecond buckets.
type Histogram struct {
	counts [len(HistogramBounds) + 1]atomic.Int64
	sumNs  atomic.Int64
}

// HistogramBounds are the upper bounds of the buckets, in milliseconds.
var HistogramBounds = [...]float64{1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000}

// Observe records one duration.
func (h *Histogram) Observe(d time.Duration) {
	ms := float64(d) / float64(time.Millisecond)
	i := sort.SearchFloat64s(HistogramBounds[:], ms)
	h.counts[i].Add(1)
	h.sumNs.Add(int64(d))
}

// Snapshot returns per-bucket counts (the last is +Inf) and the sum.
func (h *Histogram) Snapshot() (counts []int64, sum time.Duration) {
	counts = make([]int64, len(h.counts))
	for i := range h.counts {
		counts[i] = h.counts[i].Load()
	}
	return counts, time.Duration(h.sumNs.Load())
}
