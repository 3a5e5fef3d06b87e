package edgehub

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"strings"
	"sync/atomic"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
	"github.com/eclipse/paho.mqtt.golang/packets"
)

// Connection settings (iotedge-platform §2, §6.1), with their reasons.
const (
	keepAlive            = 60 * time.Second // the Python SDK's; edgeHub allows up to 10 min
	pingTimeout          = 10 * time.Second
	connectTimeout       = 30 * time.Second
	writeTimeout         = 30 * time.Second // a stuck socket must not hang publishers forever
	maxReconnectInterval = 30 * time.Second // paho's 10-minute default is far too slow for a local hub
	connectRetryInterval = 5 * time.Second
	signTimeout          = 10 * time.Second // the workload client's own per-request bound
)

// session is one paho client: one MQTT connection with its reconnects. A new
// session replaces it when the SAS token is renewed (paho clients cannot be
// reused after Disconnect).
type session struct {
	id       uint64
	cl       mqtt.Client
	signedAt atomic.Int64 // clock time (unix ns) the last token was signed
}

// newSession builds a paho client for edgeHub; it does not connect.
func (c *Client) newSession(pool *x509.CertPool) *session {
	s := &session{id: c.sessions.Add(1)}
	o := mqtt.NewClientOptions()
	o.AddBroker("tls://" + c.opts.Address)
	o.SetClientID(c.opts.Identity.ClientID())
	o.SetProtocolVersion(4) // MQTT 3.1.1; paho would otherwise fall back to 3.1
	o.SetTLSConfig(&tls.Config{RootCAs: pool, ServerName: c.opts.Identity.Gateway, MinVersion: tls.VersionTLS12})
	o.SetCredentialsProvider(func() (string, string) { return c.credentials(s) })
	o.SetCleanSession(false) // edgeHub keeps the session: unacknowledged inputs are resent
	o.SetResumeSubs(false)   // subscriptions are made again after every connect
	// Handlers only queue and return, so ordered dispatch on paho's router
	// goroutine costs nothing and keeps inputs in edgeHub's order.
	o.SetOrderMatters(true)
	o.SetAutoAckDisabled(true) // inputs are acknowledged once the broker took them
	o.SetKeepAlive(keepAlive)
	o.SetPingTimeout(pingTimeout)
	o.SetConnectTimeout(connectTimeout)
	o.SetWriteTimeout(writeTimeout)
	o.SetAutoReconnect(true)
	o.SetMaxReconnectInterval(maxReconnectInterval)
	o.SetConnectRetry(true)
	o.SetConnectRetryInterval(connectRetryInterval)
	o.SetOnConnectHandler(func(mqtt.Client) { c.mb.postConnected(s) })
	o.SetConnectionLostHandler(func(_ mqtt.Client, err error) {
		c.log.Warn().Err(err).Msg("edgeHub connection lost; reconnecting")
		c.mb.postLost(s)
	})
	o.SetConnectionNotificationHandler(func(_ mqtt.Client, n mqtt.ConnectionNotification) {
		if f, ok := n.(mqtt.ConnectionNotificationBrokerFailed); ok {
			c.connectFailed(f.Reason)
		}
	})
	o.SetDefaultPublishHandler(func(_ mqtt.Client, m mqtt.Message) { c.route(s, m) })
	o.SetStore(copyingStore{mqtt.NewMemoryStore()})
	s.cl = mqtt.NewClient(o)
	return s
}

// copyingStore is paho's memory store, except that Get hands out a copy of
// a stored PUBLISH. After a reconnect paho's resume marks every stored
// publish DUP and sends it again, while publishes made since the connection
// opened are already being written; with the stored packet itself, resume
// would set the flag on a packet paho's writer is encoding (a data race
// inside paho, seen under -race). The copy shares the payload, which nobody
// writes.
type copyingStore struct{ *mqtt.MemoryStore }

func (s copyingStore) Get(key string) packets.ControlPacket {
	p := s.MemoryStore.Get(key)
	if pub, ok := p.(*packets.PublishPacket); ok {
		cp := *pub
		return &cp
	}
	return p
}

// credentials signs a fresh SAS token for every connection attempt. On
// failure it returns an empty password; edgeHub refuses it and paho retries.
func (c *Client) credentials(s *session) (string, string) {
	ctx, cancel := context.WithTimeout(c.ctx, signTimeout)
	defer cancel()
	now := c.opts.Clock.Now()
	tok, err := Token(ctx, c.opts.Workload, c.opts.Identity.Resource(), now.Add(c.opts.TokenTTL))
	if err != nil {
		c.connectFailed(err)
		return c.opts.Identity.Username(c.opts.ClientType), ""
	}
	s.signedAt.Store(now.UnixNano())
	return c.opts.Identity.Username(c.opts.ClientType), tok
}

// connectFailed logs a failed connection attempt once per distinct reason per
// interval: paho retries every few seconds while edgeHub is away.
func (c *Client) connectFailed(err error) {
	if n, ok := c.causes.note("connect: "+err.Error(), c.opts.Clock.Now()); ok {
		c.log.Warn().Err(err).Int64("attempts", n).Msg("cannot connect to edgeHub yet; retrying (HTTP ingest and other deliveries are unaffected)")
	}
}

// route hands a received message to its handler; it never blocks.
func (c *Client) route(s *session, m mqtt.Message) {
	topic := m.Topic()
	if strings.HasPrefix(topic, "$iothub/twin/") {
		m.Ack()
		c.mb.postTwin(twinMessage{s: s, topic: topic, payload: m.Payload()})
		return
	}
	if input, _, ok := c.opts.Identity.InputName(topic); ok {
		if !c.in.push(inMsg{input: input, payload: m.Payload(), ack: m.Ack}) {
			c.dropped("ingest queue full (edgeHub sends it again after a reconnect)", input, nil)
		}
		return
	}
	m.Ack()
	c.dropped("not an input or twin topic", "", errors.New("topic "+topic))
}

func (s *session) close() { s.cl.Disconnect(quiesce) }

func (s *session) open() bool { return s != nil && s.cl.IsConnectionOpen() }
