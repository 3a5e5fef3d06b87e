package ratelog

import (
	"slices"
	"strings"

	"github.com/rs/zerolog"
)

// Report counts one occurrence of cause. When the cause has not been
// reported within the current period, it logs msg at once with the fields
// detail adds (detail may be nil); otherwise it only counts. cause should
// name a category (a topic and an error kind), not carry per-message data.
func (l *Logger) Report(cause, msg string, detail func(*zerolog.Event)) {
	l.mu.Lock()
	c := l.entry(cause, msg)
	c.total++
	if c.active {
		c.pending++
		l.mu.Unlock()
		return
	}
	c.active = true
	total := c.total
	l.arm()
	l.mu.Unlock()
	e := l.log.Warn().Str("cause", cause).Int64("total", total)
	if detail != nil {
		detail(e)
	}
	e.Msg(msg)
}

// entry returns the cause's record, creating it; beyond MaxCauses it
// returns OtherCauses'. Called with mu held.
func (l *Logger) entry(name, msg string) *cause {
	if c, ok := l.causes[name]; ok {
		return c
	}
	if len(l.causes) >= MaxCauses {
		name = OtherCauses
		if c, ok := l.causes[name]; ok {
			return c
		}
	}
	c := &cause{msg: msg}
	l.causes[name] = c
	return c
}

// arm starts the summary timer unless it runs or the Logger is closed.
// Called with mu held.
func (l *Logger) arm() {
	if l.stop != nil || l.closed {
		return
	}
	l.stop = l.clock.AfterFunc(l.every, l.tick)
}

// tick ends a period: it logs the summaries and re-arms while any cause was
// active in it.
func (l *Logger) tick() {
	l.mu.Lock()
	l.stop = nil
	lines := l.collect()
	for _, c := range l.causes {
		if c.active {
			l.arm()
			break
		}
	}
	l.mu.Unlock()
	l.write(lines)
}

// summary is one line to log.
type summary struct {
	cause, msg   string
	count, total int64
}

// collect takes the pending counts and ends the period: causes without
// occurrences in it become inactive. Called with mu held.
func (l *Logger) collect() []summary {
	var out []summary
	for name, c := range l.causes {
		if c.pending > 0 {
			out = append(out, summary{cause: name, msg: c.msg, count: c.pending, total: c.total})
			c.pending = 0
			continue
		}
		c.active = false
	}
	slices.SortFunc(out, func(a, b summary) int { return strings.Compare(a.cause, b.cause) })
	return out
}

func (l *Logger) write(lines []summary) {
	for _, s := range lines {
		l.log.Warn().Str("cause", s.cause).Int64("count", s.count).Int64("total", s.total).
			Dur("period", l.every).Msg(s.msg + " (repeated; count since the last line)")
	}
}

// Counts returns the total occurrences by cause since New.
func (l *Logger) Counts() map[string]int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make(map[string]int64, len(l.causes))
	for name, c := range l.causes {
		out[name] = c.total
	}
	return out
}

// Close stops the summary timer and logs the counts still pending. Reports
// after Close are still counted, and each cause is logged at most once more;
// no summary is written any more. Idempotent.
func (l *Logger) Close() {
	l.mu.Lock()
	l.closed = true
	if l.stop != nil {
		l.stop()
		l.stop = nil
	}
	lines := l.collect()
	for _, c := range l.causes {
		c.active = false
	}
	l.mu.Unlock()
	l.write(lines)
}
