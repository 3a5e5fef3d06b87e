package edgehub

import (
	"crypto/x509"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
)

// Trust-bundle retry pacing while the workload API cannot give one.
const (
	bundleBackoff    = time.Second
	maxBundleBackoff = 30 * time.Second
)

// loopState is what the control loop owns.
type loopState struct {
	cur       *session
	pool      *x509.CertPool
	stopRenew func() bool
	stopTick  func() bool
}

// run is the control loop: it owns the sessions, subscribes after every
// connect, renews the token, and drives the twin. Everything it reacts to
// arrives through the mailbox.
func (c *Client) run() {
	defer c.wg.Done()
	var st loopState
	defer c.shutdown(&st)
	if !c.connect(&st) {
		return
	}
	st.stopTick = c.opts.Clock.AfterFunc(tickInterval, c.mb.postTick)
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-c.mb.wake:
		}
		if !c.handle(&st, c.mb.drain()) {
			return
		}
	}
}

// handle acts on one batch of mailbox contents; false when the client closed.
func (c *Client) handle(st *loopState, d drained) bool {
	for _, s := range d.lost {
		if s == st.cur {
			c.tw.disconnected()
		}
	}
	for _, s := range d.connected {
		if s == st.cur && s.open() {
			c.connected(st, s)
		}
	}
	for _, s := range d.rotate {
		if s == st.cur {
			c.log.Info().Msg("reconnecting to edgeHub with a freshly signed SAS token")
			c.tw.disconnected()
			st.cur.close()
			if !c.connect(st) {
				return false
			}
		}
	}
	for _, m := range d.msgs {
		if m.s == st.cur {
			c.tw.receive(m.topic, m.payload)
		}
	}
	if d.resync {
		c.tw.resync()
	}
	if d.tick {
		c.tw.tick()
		st.stopTick = c.opts.Clock.AfterFunc(tickInterval, c.mb.postTick)
	}
	return true
}

// connect starts a new session with a fresh trust bundle (the previous one
// if the workload API fails now); paho connects and reconnects on its own.
// It returns false when the client closed while waiting for a bundle.
func (c *Client) connect(st *loopState) bool {
	pool, ok := c.trustBundle(st.pool)
	if !ok {
		return false
	}
	st.pool = pool
	s := c.newSession(pool)
	st.cur = s
	c.sess.Store(s)
	s.cl.Connect() // with ConnectRetry the token completes only once connected; progress arrives via the mailbox
	return true
}

// trustBundle asks the workload API, retrying with backoff until it answers
// or the client closes; with a previous bundle it falls back to that at once.
func (c *Client) trustBundle(prev *x509.CertPool) (*x509.CertPool, bool) {
	wait := bundleBackoff
	for {
		_, pool, err := c.opts.Workload.TrustBundle(c.ctx)
		if err == nil {
			return pool, true
		}
		if c.ctx.Err() != nil {
			return nil, false
		}
		if prev != nil {
			c.log.Warn().Err(err).Msg("trust bundle unavailable; reconnecting to edgeHub with the previous one")
			return prev, true
		}
		c.log.Warn().Err(err).Dur("retryIn", wait).Msg("trust bundle unavailable; cannot connect to edgeHub yet")
		if !c.sleep(wait) {
			return nil, false
		}
		wait = min(2*wait, maxBundleBackoff)
	}
}

// connected subscribes on a new connection, schedules the token renewal and
// fetches the twin.
func (c *Client) connected(st *loopState, s *session) {
	c.connects.Add(1)
	c.log.Info().Str("address", c.opts.Address).Str("clientId", c.opts.Identity.ClientID()).Msg("connected to edgeHub")
	c.subscribe(s)
	if st.stopRenew != nil {
		st.stopRenew()
	}
	signed := time.Unix(0, s.signedAt.Load())
	at := signed.Add(time.Duration(float64(c.opts.TokenTTL) * renewAt))
	st.stopRenew = c.opts.Clock.AfterFunc(at.Sub(c.opts.Clock.Now()), func() { c.mb.postRotate(s) })
	c.tw.connected(s)
}

// subscribe asks for module inputs (QoS 1) and the twin topics. Without a
// SUBACK in time it reconnects (a new session subscribes again); filters
// edgeHub refuses are logged.
func (c *Client) subscribe(s *session) {
	filters := map[string]byte{c.opts.Identity.InputsFilter(): 1, twinResponses: 0, twinDesired: 0}
	tok := s.cl.SubscribeMultiple(filters, nil)
	timer := time.NewTimer(requestTimeout) // paho's own timeouts are wall-clock too
	defer timer.Stop()
	select {
	case <-tok.Done():
	case <-timer.C:
	case <-c.ctx.Done():
		return
	}
	if !isDone(tok) || tok.Error() != nil {
		c.log.Warn().Err(tok.Error()).Msg("subscribing to module inputs and twin updates failed; reconnecting")
		c.mb.postRotate(s)
		return
	}
	if st, ok := tok.(*mqtt.SubscribeToken); ok {
		for f, code := range st.Result() {
			if code == 0x80 {
				c.log.Error().Str("filter", f).Msg("edgeHub refused a subscription")
			}
		}
	}
}

func isDone(tok mqtt.Token) bool {
	select {
	case <-tok.Done():
		return true
	default:
		return false
	}
}

// shutdown stops the timers and disconnects.
func (c *Client) shutdown(st *loopState) {
	for _, stop := range []func() bool{st.stopRenew, st.stopTick} {
		if stop != nil {
			stop()
		}
	}
	if st.cur != nil {
		st.cur.close()
	}
}
