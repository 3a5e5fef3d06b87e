package mqttingest

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/mqttconn"
	"github.com/edgegrid/edgegrid/mqtttopic"
)

// Options configure an Ingest. URL, ClientID and Routes are required.
type Options struct {
	// URL is the MQTT broker: tcp://host:port or ssl://host:port (also
	// mqtt://, tls://, mqtts://).
	URL string
	// ClientID identifies the persistent session; it must stay the same
	// across restarts and be used by no other client.
	ClientID string
	// Username and Password authenticate the client; both may be empty.
	Username, Password string
	// TLS is used for ssl:// URLs; nil means TLS 1.2+ with the system roots.
	TLS *tls.Config
	// Routes map filters to topics; filters must be valid and unique.
	Routes []Route
	// MaxMessageSize refuses larger payloads (acknowledged, counted).
	// Default eventschema.DefaultMaxEventSize.
	MaxMessageSize int
	// Source is the CloudEvents source of raw events. Default
	// mqtt://host:port (mqtts:// for TLS) of URL.
	Source string
	// Logger receives connection state and refusals. Default: discard.
	Logger zerolog.Logger
	// Clock drives back-off, summaries and raw event times. Default: wall clock.
	Clock Clock
	// Workers, QueueMessages, QueueBytes, RetryMin, RetryMax,
	// SummaryInterval and ReconnectMax default to the constants above.
	Workers         int
	QueueMessages   int
	QueueBytes      int64
	RetryMin        time.Duration
	RetryMax        time.Duration
	SummaryInterval time.Duration
	ReconnectMax    time.Duration
}

// ErrInvalidOptions is matched by every error of New about its options.
var ErrInvalidOptions = errors.New("mqttingest: invalid options")

// setDefaults fills the zero values.
func (o *Options) setDefaults() {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.MaxMessageSize, eventschema.DefaultMaxEventSize)
	def(&o.Workers, DefaultWorkers)
	def(&o.QueueMessages, DefaultQueueMessages)
	if o.QueueBytes <= 0 {
		o.QueueBytes = DefaultQueueBytes
	}
	for _, d := range []struct {
		v *time.Duration
		d time.Duration
	}{{&o.RetryMin, DefaultRetryMin}, {&o.RetryMax, DefaultRetryMax}, {&o.SummaryInterval, DefaultSummaryInterval}, {&o.ReconnectMax, DefaultReconnectMax}} {
		if *d.v <= 0 {
			*d.v = d.d
		}
	}
	if o.Clock == nil {
		o.Clock = wallClock{}
	}
	if o.Source == "" {
		o.Source = mqttconn.Source(o.URL)
	}
}

// validate checks what setDefaults cannot fill.
func (o *Options) validate() error {
	var probs []string
	u, err := url.Parse(o.URL)
	if err != nil || u.Host == "" || !mqttconn.KnownScheme(u.Scheme) {
		probs = append(probs, fmt.Sprintf("URL %q is not tcp://host:port or ssl://host:port", o.URL))
	}
	if o.ClientID == "" {
		probs = append(probs, "ClientID is empty; a persistent session needs a stable id")
	}
	if len(o.Routes) == 0 {
		probs = append(probs, "no routes")
	}
	seen := map[string]bool{}
	for i, r := range o.Routes {
		if err := mqtttopic.ValidateFilter(r.Filter); err != nil {
			probs = append(probs, fmt.Sprintf("route %d: %v", i+1, err))
		}
		if seen[r.Filter] {
			probs = append(probs, fmt.Sprintf("route %d: filter %q repeated", i+1, r.Filter))
		}
		seen[r.Filter] = true
		if r.Topic == "" {
			probs = append(probs, fmt.Sprintf("route %d: no topic", i+1))
		}
	}
	if o.RetryMin > o.RetryMax {
		probs = append(probs, "RetryMin exceeds RetryMax")
	}
	if len(probs) > 0 {
		return fmt.Errorf("%w: %s", ErrInvalidOptions, strings.Join(probs, "; "))
	}
	return nil
}

type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

func (wallClock) AfterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
