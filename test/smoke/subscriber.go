package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// delivery is one POST the subscriber received.
type delivery struct {
	header http.Header
	body   []byte
}

// subscriber is the WebHook endpoint: an HTTP server that records every
// delivery to /api/events and answers 200.
type subscriber struct {
	ln   net.Listener
	srv  *http.Server
	done chan struct{} // closed when Serve returned

	mu   sync.Mutex
	got  []delivery
	wake chan struct{} // one slot: something new arrived
}

func startSubscriber(addr string) (*subscriber, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("subscriber: %w", err)
	}
	s := &subscriber{ln: ln, done: make(chan struct{}), wake: make(chan struct{}, 1)}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/events", s.receive)
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(ln)
	}()
	return s, nil
}

func (s *subscriber) receive(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.got = append(s.got, delivery{header: r.Header.Clone(), body: body})
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
	w.WriteHeader(http.StatusOK)
}

// endpoint is the URL the module must call: host (or the listen host, with
// loopback for a wildcard) and the listener's port.
func (s *subscriber) endpoint(host string) string {
	addr := s.ln.Addr().(*net.TCPAddr)
	if host == "" {
		host = "127.0.0.1"
		if !addr.IP.IsUnspecified() {
			host = addr.IP.String()
		}
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(addr.Port)) + "/api/events"
}

// await returns the first delivery whose body mentions id, or an error when
// ctx ends first.
func (s *subscriber) await(ctx context.Context, id string) (delivery, error) {
	for {
		s.mu.Lock()
		for _, d := range s.got {
			if strings.Contains(string(d.body), id) {
				s.mu.Unlock()
				return d, nil
			}
		}
		n := len(s.got)
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			return delivery{}, fmt.Errorf("%w (the subscriber received %d other requests)", ctx.Err(), n)
		case <-s.wake:
		}
	}
}

// close stops the server and waits for it.
func (s *subscriber) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = s.srv.Shutdown(ctx)
	<-s.done
}
