package edgehub

import (
	"sync"
	"time"
)

// Bounds of the cause log.
const (
	// causeLogInterval is how often a recurring cause is logged again, with
	// its count: once a minute is readable at any message rate.
	causeLogInterval = time.Minute
	// maxCauses bounds the distinct causes remembered; beyond it causes are
	// counted under overflowCause.
	maxCauses     = 256
	overflowCause = "other causes"
)

// causeLog counts occurrences per cause and says when to log one: the first
// time, then at most once per causeLogInterval. Safe for concurrent use.
type causeLog struct {
	mu     sync.Mutex
	counts map[string]*causeCount
}

type causeCount struct {
	n      int64
	logged time.Time
}

// note counts one occurrence of cause at now and reports the total so far and
// whether to log it.
func (l *causeLog) note(cause string, now time.Time) (int64, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.counts == nil {
		l.counts = map[string]*causeCount{}
	}
	cc, ok := l.counts[cause]
	if !ok && len(l.counts) >= maxCauses {
		cause = overflowCause
		cc, ok = l.counts[cause]
	}
	if !ok {
		cc = &causeCount{}
		l.counts[cause] = cc
	}
	return cc.bump(now)
}

func (cc *causeCount) bump(now time.Time) (int64, bool) {
	cc.n++
	if cc.n == 1 || now.Sub(cc.logged) >= causeLogInterval {
		cc.logged = now
		return cc.n, true
	}
	return cc.n, false
}

// snapshot returns the counts by cause.
func (l *causeLog) snapshot() map[string]int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make(map[string]int64, len(l.counts))
	for k, v := range l.counts {
		out[k] = v.n
	}
	return out
}
