// Package ratelog logs a repeated problem once per cause and then in periodic
// summaries, so a flood of bad input costs at most two log lines per cause and
// period instead of one per occurrence. Ingest paths use it for input they
// refuse (a malformed MQTT payload arriving a thousand times a second).
package ratelog

import (
	"sync"
	"time"

	"github.com/rs/zerolog"
)

// Clock is the time source: the wall clock by default, a manual one in tests.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine after d unless stop is called
	// first.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

func (wallClock) AfterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

// MaxCauses bounds the causes tracked; further ones are counted under
// OtherCauses so that a caller building causes from input cannot grow memory
// without bound.
const MaxCauses = 256

// OtherCauses is the cause that stands for every cause beyond MaxCauses.
const OtherCauses = "other causes"

// Logger counts occurrences by cause and logs them at warn level:
//
//   - the first occurrence of a cause is logged at once, with its details;
//   - further occurrences within the period are counted, and when the period
//     ends one summary line per cause gives the count (and the total so far);
//   - a cause that stays silent for a whole period is logged with details
//     again on its next occurrence.
//
// Its methods are safe for concurrent use. Close stops its timer.
type Logger struct {
	log   zerolog.Logger
	every time.Duration
	clock Clock

	mu     sync.Mutex
	causes map[string]*cause
	stop   func() bool // the armed summary timer, nil when none
	closed bool
}

// cause is what the Logger knows of one cause.
type cause struct {
	msg     string // the message of the first report
	total   int64  // occurrences since New
	pending int64  // occurrences not logged yet
	active  bool   // reported within the current period
}

// Option customises a Logger.
type Option func(*Logger)

// WithClock sets the clock (tests use a manual one).
func WithClock(c Clock) Option { return func(l *Logger) { l.clock = c } }

// New returns a Logger that writes to log and summarises every period
// (at least one second; a shorter period is raised to it).
func New(log zerolog.Logger, every time.Duration, opts ...Option) *Logger {
	l := &Logger{log: log, every: max(every, time.Second), clock: wallClock{}, causes: map[string]*cause{}}
	for _, o := range opts {
		o(l)
	}
	return l
}
