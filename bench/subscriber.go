package main

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// subscriber is an in-process webhook that counts events and records
// publish-to-delivery latency from the timestamp inside each event.
type subscriber struct {
	srv       *http.Server
	URL       string
	events    atomic.Int64
	requests  atomic.Int64
	mu        sync.Mutex
	latencies []time.Duration
	record    atomic.Bool
	status    atomic.Int32
	gate      atomic.Pointer[chan struct{}] // non-nil: requests wait until it closes
	failN     atomic.Int64                  // >0: every failN-th request answers 503
}

// failEvery makes every n-th request fail with 503.
func (s *subscriber) failEvery(n int64) { s.failN.Store(n) }

// pause makes requests wait; resume lets them through.
func (s *subscriber) pause() {
	ch := make(chan struct{})
	s.gate.Store(&ch)
}

func (s *subscriber) resume() {
	if ch := s.gate.Swap(nil); ch != nil {
		close(*ch)
	}
}

func newSubscriber() (*subscriber, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &subscriber{URL: "http://" + ln.Addr().String() + "/api/events"}
	s.status.Store(200)
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

func (s *subscriber) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if ch := s.gate.Load(); ch != nil {
		<-*ch
	}
	now := time.Now().UnixNano()
	if n := s.requests.Add(1); s.failN.Load() > 0 && n%s.failN.Load() == 0 {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	if s.record.Load() {
		var evs []struct {
			Data struct {
				T int64 `json:"t"`
			} `json:"data"`
		}
		if json.Unmarshal(body, &evs) == nil {
			s.mu.Lock()
			for _, e := range evs {
				if e.Data.T > 0 {
					s.latencies = append(s.latencies, time.Duration(now-e.Data.T))
				}
			}
			s.mu.Unlock()
			s.events.Add(int64(len(evs)))
		}
	} else {
		s.events.Add(countEvents(body))
	}
	w.WriteHeader(int(s.status.Load()))
}

// countEvents counts top-level array elements cheaply (ids are unique objects).
func countEvents(body []byte) int64 {
	var raw []json.RawMessage
	if json.Unmarshal(body, &raw) != nil {
		return 0
	}
	return int64(len(raw))
}

func (s *subscriber) reset() {
	s.mu.Lock()
	s.latencies = nil
	s.mu.Unlock()
	s.events.Store(0)
	s.requests.Store(0)
}

// percentiles returns p50, p99, p999 of the recorded latencies.
func (s *subscriber) percentiles() (p50, p99, p999 time.Duration, n int) {
	s.mu.Lock()
	l := append([]time.Duration(nil), s.latencies...)
	s.mu.Unlock()
	if len(l) == 0 {
		return 0, 0, 0, 0
	}
	sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
	at := func(p float64) time.Duration { return l[min(len(l)-1, int(p*float64(len(l))))] }
	return at(0.50), at(0.99), at(0.999), len(l)
}

func (s *subscriber) close() { _ = s.srv.Close() }

// waitEvents waits until n events arrived or timeout passes.
func (s *subscriber) waitEvents(n int64, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for s.events.Load() < n {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}
