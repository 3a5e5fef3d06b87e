package mqttingest

import (
	"errors"
	"net"
	"net/url"
	"sync/atomic"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/mqttconn"
)

// clientOptions configures paho for an at-least-once consumer:
//
//   - a persistent session (CleanSession false) under a stable client id, so
//     the MQTT broker keeps subscriptions and unacknowledged messages while
//     the ingest is away;
//   - manual acknowledgement: a message is acknowledged only once its fate
//     is settled (see the package documentation);
//   - ordered dispatch: the handler only pushes to the ingest's queue and
//     never blocks, so running it on paho's router goroutine is safe and
//     keeps arrival order into the queue;
//   - connect retry and auto-reconnect in the background, resubscribing in
//     OnConnect (the session may be gone after a broker restart without
//     persistence);
//   - a dialer of our own, so resync can drop the connection.
func (in *Ingest) clientOptions() *paho.ClientOptions {
	o := in.opts
	co := paho.NewClientOptions().
		AddBroker(o.URL).
		SetClientID(o.ClientID).
		SetUsername(o.Username).
		SetPassword(o.Password).
		SetProtocolVersion(4).
		SetCleanSession(false).
		SetAutoAckDisabled(true).
		SetOrderMatters(true).
		SetResumeSubs(false).
		SetKeepAlive(30 * time.Second).
		SetPingTimeout(10 * time.Second).
		SetConnectTimeout(10 * time.Second).
		SetWriteTimeout(10 * time.Second).
		SetAutoReconnect(true).
		SetMaxReconnectInterval(o.ReconnectMax).
		SetConnectRetry(true).
		SetConnectRetryInterval(connectRetryInterval).
		SetDefaultPublishHandler(in.onMessage).
		SetOnConnectHandler(in.onConnect).
		SetConnectionLostHandler(in.onLost).
		SetConnectionNotificationHandler(in.onNotification).
		SetCustomOpenConnectionFn(in.dial)
	if o.TLS != nil {
		co.SetTLSConfig(o.TLS)
	}
	return co
}

// dial opens the network connection for paho and remembers it.
func (in *Ingest) dial(uri *url.URL, co paho.ClientOptions) (net.Conn, error) {
	conn, err := mqttconn.Dial(uri, co.ConnectTimeout, co.TLSConfig)
	if err != nil {
		return nil, err
	}
	rc := &resyncConn{Conn: conn}
	in.conn.Store(rc)
	return rc, nil
}

// onConnect runs on a paho goroutine after every (re)connection. It only
// hands the subscription to the session loop.
func (in *Ingest) onConnect(paho.Client) {
	in.stats.up.Store(true)
	in.log.Info().Str("url", in.opts.URL).Str("clientId", in.opts.ClientID).Msg("connected to the MQTT broker")
	select {
	case in.connected <- struct{}{}:
	default:
	}
}

func (in *Ingest) onLost(_ paho.Client, err error) {
	in.stats.up.Store(false)
	in.stats.subscribed.Store(false)
	if in.closing.Load() {
		return
	}
	in.log.Warn().Err(err).Str("url", in.opts.URL).Msg("lost the connection to the MQTT broker; reconnecting")
}

// onNotification logs failed connection attempts, once per cause and then
// in summaries: a broker that stays away must not flood the log.
func (in *Ingest) onNotification(_ paho.Client, n paho.ConnectionNotification) {
	f, ok := n.(paho.ConnectionNotificationFailed)
	if !ok || in.closing.Load() {
		return
	}
	in.transient.Report("cannot connect to the MQTT broker", "cannot connect to the MQTT broker; retrying in the background",
		func(e *zerolog.Event) { e.Err(f.Reason).Str("url", in.opts.URL) })
}

// resync drops the current connection: paho reconnects at once, and the
// MQTT broker sends every unacknowledged message of the session again.
func (in *Ingest) resync() {
	if c := in.conn.Load(); c != nil {
		in.stats.reconnects.Add(1)
		c.drop()
	}
}

// errResync is what paho reads from a connection resync dropped.
var errResync = errors.New("mqttingest: connection dropped to have the MQTT broker resend unacknowledged messages")

// resyncConn is the connection paho uses. A plain Close would not do for
// resync: paho takes "use of closed network connection" for its own
// Disconnect and neither reports the loss nor reconnects, so it would sit on
// a dead socket until keep-alive failed. After drop, reads and writes fail
// with errResync instead, which paho handles as a lost connection.
type resyncConn struct {
	net.Conn
	dropped atomic.Bool
}

func (c *resyncConn) drop() {
	c.dropped.Store(true)
	_ = c.Conn.Close()
}

func (c *resyncConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if err != nil && c.dropped.Load() {
		err = errResync
	}
	return n, err
}

func (c *resyncConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	if err != nil && c.dropped.Load() {
		err = errResync
	}
	return n, err
}
