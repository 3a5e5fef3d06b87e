package certs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/certs"
	"github.com/edgegrid/edgegrid/internal/testenv"
	"github.com/edgegrid/edgegrid/workload"
)

// logSink collects JSON log lines.
type logSink struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *logSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

// lines returns the logged lines at level.
func (s *logSink) lines(level string) []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for _, l := range strings.Split(s.buf.String(), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil && m["level"] == level {
			out = append(out, m)
		}
	}
	return out
}

// fixture is a Renewer of the server certificate from a workload double,
// on a manual clock that also dates the double's certificates.
type fixture struct {
	wl       *testenv.Workload
	clock    *testenv.ManualClock
	client   *workload.Client
	r        *certs.Renewer
	log      *logSink
	renewals int
}

func newFixture(t *testing.T, lifetime time.Duration) *fixture {
	t.Helper()
	f := &fixture{wl: testenv.NewWorkload(t), clock: testenv.NewManualClock(), log: &logSink{}}
	f.wl.SetNow(f.clock.Now)
	f.wl.SetCertLifetime(lifetime)
	c, err := workload.New(workload.Options{URI: f.wl.URI, ModuleID: f.wl.ModuleID, GenerationID: f.wl.GenerationID, Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	f.client = c
	f.r, err = certs.NewRenewer(certs.RenewerOptions{
		Name: "server certificate",
		Issue: func(ctx context.Context) (*workload.Certificate, error) {
			return c.ServerCert(ctx, "gw.local", f.clock.Now())
		},
		Clock: f.clock, Logger: zerolog.New(f.log),
		OnRenew: func(context.Context) error { f.renewals++; return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.r.Stop)
	return f
}

func (f *fixture) serial(t *testing.T) string {
	t.Helper()
	c, err := f.r.GetCertificate(nil)
	if err != nil {
		t.Fatal(err)
	}
	return c.Leaf.SerialNumber.String()
}
