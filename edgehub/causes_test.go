package edgehub

import (
	"strconv"
	"testing"
	"time"
)

func TestCauseLog(t *testing.T) {
	var l causeLog
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	steps := []struct {
		cause   string
		at      time.Duration
		count   int64
		logNow  bool
		comment string
	}{
		{"a", 0, 1, true, "first occurrence is logged"},
		{"a", 10 * time.Second, 2, false, "repeats within a minute are counted only"},
		{"b", 20 * time.Second, 1, true, "another cause is logged on its own"},
		{"a", 59 * time.Second, 3, false, ""},
		{"a", 60 * time.Second, 4, true, "a minute after the last log: logged with the count"},
		{"a", 61 * time.Second, 5, false, ""},
	}
	for _, s := range steps {
		n, log := l.note(s.cause, t0.Add(s.at))
		if n != s.count || log != s.logNow {
			t.Fatalf("%s at %v: got (%d, %v), want (%d, %v) %s", s.cause, s.at, n, log, s.count, s.logNow, s.comment)
		}
	}
	for i := range maxCauses {
		l.note("c"+strconv.Itoa(i), t0)
	}
	snap := l.snapshot()
	if len(snap) != maxCauses+1 || snap[overflowCause] != 2 || snap["a"] != 5 {
		t.Fatalf("%d causes, overflow %d, a %d", len(snap), snap[overflowCause], snap["a"])
	}
}
