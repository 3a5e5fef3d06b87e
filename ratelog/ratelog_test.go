package ratelog_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/internal/testenv"
	"github.com/edgegrid/edgegrid/ratelog"
)

// sink collects log lines as parsed JSON.
type sink struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *sink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *sink) lines(t *testing.T) []map[string]any {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(s.buf.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("bad log line %q: %v", l, err)
		}
		out = append(out, m)
	}
	s.buf.Reset()
	return out
}

func newLogger(t *testing.T) (*ratelog.Logger, *sink, *testenv.ManualClock) {
	s := &sink{}
	clock := testenv.NewManualClock()
	l := ratelog.New(zerolog.New(s), 10*time.Second, ratelog.WithClock(clock))
	t.Cleanup(l.Close)
	return l, s, clock
}

func TestOnceThenSummaries(t *testing.T) {
	l, s, clock := newLogger(t)
	for i := range 1000 {
		l.Report("telemetry: invalid JSON", "MQTT message refused", func(e *zerolog.Event) { e.Int("i", i) })
	}
	l.Report("alarms: unknown topic", "MQTT message refused", nil)
	got := s.lines(t)
	if len(got) != 2 || got[0]["i"] != 0.0 || got[0]["cause"] != "telemetry: invalid JSON" || got[1]["cause"] != "alarms: unknown topic" {
		t.Fatalf("first lines %v, want one detailed line per cause", got)
	}
	clock.Advance(10 * time.Second)
	got = s.lines(t)
	if len(got) != 1 || got[0]["count"] != 999.0 || got[0]["total"] != 1000.0 || got[0]["cause"] != "telemetry: invalid JSON" {
		t.Fatalf("summary %v, want one line counting 999 more", got)
	}
	// Still active in this period: counted, summarised at its end.
	l.Report("telemetry: invalid JSON", "MQTT message refused", nil)
	if got := s.lines(t); len(got) != 0 {
		t.Fatalf("logged %v within an active period", got)
	}
	clock.Advance(10 * time.Second)
	if got := s.lines(t); len(got) != 1 || got[0]["count"] != 1.0 || got[0]["total"] != 1001.0 {
		t.Fatalf("second summary %v", got)
	}
	// A whole quiet period: the next occurrence is logged in detail again.
	clock.Advance(10 * time.Second)
	if got := s.lines(t); len(got) != 0 {
		t.Fatalf("quiet period logged %v", got)
	}
	l.Report("telemetry: invalid JSON", "MQTT message refused", func(e *zerolog.Event) { e.Str("again", "yes") })
	if got := s.lines(t); len(got) != 1 || got[0]["again"] != "yes" || got[0]["total"] != 1002.0 {
		t.Fatalf("after a quiet period %v, want the detailed line", got)
	}
	if c := l.Counts(); c["telemetry: invalid JSON"] != 1002 || c["alarms: unknown topic"] != 1 {
		t.Errorf("Counts() = %v", c)
	}
}

func TestTimerStopsWhenQuiet(t *testing.T) {
	l, _, clock := newLogger(t)
	l.Report("c", "m", nil)
	if clock.Pending() != 1 {
		t.Fatalf("timers armed: %d, want 1", clock.Pending())
	}
	clock.Advance(10 * time.Second) // period with the report ends: cause still active
	clock.Advance(10 * time.Second) // a quiet period: cause inactive, no timer
	if clock.Pending() != 0 {
		t.Errorf("timers armed after a quiet period: %d, want 0", clock.Pending())
	}
}

func TestCloseFlushes(t *testing.T) {
	l, s, clock := newLogger(t)
	l.Report("c", "m", nil)
	l.Report("c", "m", nil)
	l.Report("c", "m", nil)
	s.lines(t)
	l.Close()
	if got := s.lines(t); len(got) != 1 || got[0]["count"] != 2.0 {
		t.Fatalf("Close logged %v, want the pending summary", got)
	}
	if clock.Pending() != 0 {
		t.Errorf("Close left %d timers", clock.Pending())
	}
	l.Report("c", "m", nil)
	l.Report("c", "m", nil)
	if got := s.lines(t); len(got) != 1 {
		t.Errorf("after Close: %d lines, want 1", len(got))
	}
	if l.Counts()["c"] != 5 {
		t.Errorf("count %d, want 5", l.Counts()["c"])
	}
	l.Close()
}

func TestCausesBounded(t *testing.T) {
	l, s, _ := newLogger(t)
	for i := range ratelog.MaxCauses + 50 {
		l.Report(fmt.Sprint("cause-", i), "m", nil)
	}
	c := l.Counts()
	if len(c) != ratelog.MaxCauses+1 || c[ratelog.OtherCauses] != 50 {
		t.Errorf("%d causes, other %d; want %d and 50", len(c), c[ratelog.OtherCauses], ratelog.MaxCauses+1)
	}
	if got := len(s.lines(t)); got != ratelog.MaxCauses+1 {
		t.Errorf("%d lines, want %d", got, ratelog.MaxCauses+1)
	}
}

func TestConcurrentReports(t *testing.T) {
	l, s, clock := newLogger(t)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for range 500 {
				l.Report(fmt.Sprint("c", g%2), "m", nil)
			}
		})
	}
	wg.Go(func() {
		for range 20 {
			clock.Advance(10 * time.Second)
		}
	})
	wg.Wait()
	l.Close()
	var total float64
	for _, line := range s.lines(t) {
		if n, ok := line["count"].(float64); ok {
			total += n
		} else {
			total++
		}
	}
	if total != 4000 || l.Counts()["c0"]+l.Counts()["c1"] != 4000 {
		t.Errorf("lines account for %v occurrences, counts %v; want 4000", total, l.Counts())
	}
}
