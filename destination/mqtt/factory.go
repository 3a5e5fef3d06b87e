package mqtt

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/mqttconn"
	"github.com/edgegrid/edgegrid/ratelog"
)

// Defaults, each with the reason for its value.
const (
	// DefaultPublishTimeout: a local broker answers in milliseconds; half a
	// minute covers a slow disk (persistence) without holding a delivery
	// slot for long.
	DefaultPublishTimeout = 30 * time.Second
	// DefaultReconnectMax caps the reconnect back-off.
	DefaultReconnectMax = 30 * time.Second
	// reconnectMin is the first wait between connection attempts; it
	// doubles up to ReconnectMax.
	reconnectMin = time.Second
	// disconnectQuiesce lets in-flight publishes finish before DISCONNECT.
	disconnectQuiesce = 250 // milliseconds, as paho takes it
)

// Options configure the MQTT connection of the Mqtt destination.
type Options struct {
	// URL is the broker: tcp://host:port or ssl://host:port.
	URL string
	// ClientID must differ from every other client's (the ingest's too).
	ClientID string
	// Username and Password authenticate the client; both may be empty.
	Username, Password string
	// TLS is used for ssl:// URLs; nil means TLS 1.2+ with the system roots.
	TLS *tls.Config
	// PublishTimeout bounds the wait for PUBACK. Default DefaultPublishTimeout.
	PublishTimeout time.Duration
	// ReconnectMax caps the reconnect back-off. Default DefaultReconnectMax.
	ReconnectMax time.Duration
	// Logger receives connection state. Default: discard.
	Logger zerolog.Logger
}

// Factory builds Mqtt senders that share one MQTT connection. The
// connection opens in the background on Start (or when the first sender is
// built) and reconnects by itself; Close ends it.
type Factory struct {
	opts    Options
	log     zerolog.Logger
	connLog *ratelog.Logger
	client  paho.Client
	start   sync.Once
	closed  atomic.Bool
	done    chan struct{} // closed by Close: the connect loop stops waiting
	epoch   atomic.Uint64 // connections opened so far
}

var _ destination.Factory = (*Factory)(nil)

// NewFactory checks the options and prepares the client; it does not connect.
func NewFactory(o Options) (*Factory, error) {
	u, err := url.Parse(o.URL)
	if err != nil || u.Host == "" || !mqttconn.KnownScheme(u.Scheme) {
		return nil, fmt.Errorf("mqtt: URL %q is not tcp://host:port or ssl://host:port", o.URL)
	}
	if o.ClientID == "" {
		return nil, fmt.Errorf("mqtt: ClientID is empty")
	}
	if o.PublishTimeout <= 0 {
		o.PublishTimeout = DefaultPublishTimeout
	}
	if o.ReconnectMax <= 0 {
		o.ReconnectMax = DefaultReconnectMax
	}
	log := o.Logger.With().Str("component", "mqtt-destination").Logger()
	f := &Factory{opts: o, log: log, connLog: ratelog.New(log, time.Minute), done: make(chan struct{})}
	f.client = paho.NewClient(f.clientOptions())
	return f, nil
}

// clientOptions: a clean session (nothing to keep between connections, the
// broker's retry queues hold undelivered events), our own connect loop
// (see connectLoop), and our dialer, which counts connections.
//
// paho's auto-reconnect is off on purpose: after a reconnect it resends the
// publishes still in its store, even with a clean session, while new
// publishes already flow. That duplicates the messages our retry queues
// send again anyway, and races inside paho (a message being written while
// resume marks it DUP). Without auto-reconnect, a lost connection fails
// every pending publish at once (Retry) and a fresh Connect empties the
// store.
func (f *Factory) clientOptions() *paho.ClientOptions {
	o := f.opts
	co := paho.NewClientOptions().AddBroker(o.URL).SetClientID(o.ClientID).
		SetUsername(o.Username).SetPassword(o.Password).SetProtocolVersion(4).
		SetCleanSession(true).SetKeepAlive(30 * time.Second).SetPingTimeout(10 * time.Second).
		SetConnectTimeout(10 * time.Second).SetWriteTimeout(10 * time.Second).
		SetAutoReconnect(false).SetConnectRetry(false).
		SetOnConnectHandler(func(paho.Client) {
			f.log.Info().Str("url", o.URL).Str("clientId", o.ClientID).Msg("Mqtt destination connected to the MQTT broker")
		}).
		SetConnectionLostHandler(func(_ paho.Client, err error) {
			if f.closed.Load() {
				return
			}
			f.log.Warn().Err(err).Msg("Mqtt destination lost the connection to the MQTT broker; deliveries retry until it is back")
			go f.connectLoop()
		}).
		SetConnectionNotificationHandler(f.onNotification).
		SetCustomOpenConnectionFn(func(uri *url.URL, co paho.ClientOptions) (net.Conn, error) {
			c, err := mqttconn.Dial(uri, co.ConnectTimeout, co.TLSConfig)
			if err == nil {
				f.epoch.Add(1)
			}
			return c, err
		})
	if o.TLS != nil {
		co.SetTLSConfig(o.TLS)
	}
	return co
}

func (f *Factory) onNotification(_ paho.Client, n paho.ConnectionNotification) {
	if fail, ok := n.(paho.ConnectionNotificationFailed); ok && !f.closed.Load() {
		f.connLog.Report("cannot connect", "Mqtt destination cannot connect to the MQTT broker; retrying in the background",
			func(e *zerolog.Event) { e.Err(fail.Reason).Str("url", f.opts.URL) })
	}
}

// Validate checks the endpoint (see ValidateEndpoint).
func (f *Factory) Validate(ep *destination.Endpoint) error { return ValidateEndpoint(ep) }

// Start opens the connection in the background and returns at once; later
// calls do nothing. Starting early, before subscriptions exist, spares the
// first deliveries a retry while the connection comes up.
func (f *Factory) Start() {
	f.start.Do(func() {
		if !f.closed.Load() {
			f.log.Info().Str("url", f.opts.URL).Str("clientId", f.opts.ClientID).Msg("Mqtt destination connecting to the MQTT broker")
			go f.connectLoop()
		}
	})
}

// New validates the endpoint, starts the connection if it is not started
// yet, and returns a sender publishing to the endpoint's topic.
func (f *Factory) New(ep *destination.Endpoint) (destination.Sender, error) {
	if err := f.Validate(ep); err != nil {
		return nil, err
	}
	f.Start()
	return &sender{f: f, topic: ep.MqttTopic}, nil
}

// Connected reports whether the connection is up.
func (f *Factory) Connected() bool { return f.client.IsConnectionOpen() }

// connectLoop connects, waiting reconnectMin after a failed attempt and
// doubling the wait up to ReconnectMax, until it succeeds or Close. One
// runs at a time: from Start, then from each lost connection.
func (f *Factory) connectLoop() {
	wait := min(reconnectMin, f.opts.ReconnectMax)
	for !f.closed.Load() {
		tok := f.client.Connect()
		tok.Wait()
		if tok.Error() == nil {
			// Close sets the flag before it disconnects: if we see it unset,
			// Close's Disconnect comes after this connection is up.
			if f.closed.Load() {
				f.client.Disconnect(0)
			}
			return
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-f.done:
			t.Stop()
			return
		}
		wait = min(2*wait, f.opts.ReconnectMax)
	}
}

// Close disconnects; senders answer Retry afterwards. Call it after the
// broker's drain. Idempotent.
func (f *Factory) Close() {
	if f.closed.Swap(true) {
		return
	}
	close(f.done)
	f.client.Disconnect(disconnectQuiesce)
	f.connLog.Close()
}
