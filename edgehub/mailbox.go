package edgehub

import "sync"

// maxTwinMessages bounds the twin messages waiting for the control loop.
// edgeHub sends a handful at a time; overflow is recovered by a full GET.
const maxTwinMessages = 64

// twinMessage is a twin response or desired-properties patch as received.
type twinMessage struct {
	s       *session
	topic   string
	payload []byte
}

// mailbox carries what paho's callbacks report to the control loop. Callbacks
// only append and signal, so they never block paho; the loop drains it.
type mailbox struct {
	mu        sync.Mutex
	connected []*session
	lost      []*session
	rotate    []*session
	msgs      []twinMessage
	resync    bool // a twin message was dropped: GET the whole twin again
	tick      bool
	wake      chan struct{} // one slot: "something is waiting"
}

func newMailbox() *mailbox { return &mailbox{wake: make(chan struct{}, 1)} }

// post runs f under the lock, then wakes the loop.
func (m *mailbox) post(f func()) {
	m.mu.Lock()
	f()
	m.mu.Unlock()
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

func (m *mailbox) postConnected(s *session) { m.post(func() { m.connected = append(m.connected, s) }) }
func (m *mailbox) postLost(s *session)      { m.post(func() { m.lost = append(m.lost, s) }) }
func (m *mailbox) postRotate(s *session)    { m.post(func() { m.rotate = append(m.rotate, s) }) }
func (m *mailbox) postTick()                { m.post(func() { m.tick = true }) }

func (m *mailbox) postTwin(msg twinMessage) {
	m.post(func() {
		if len(m.msgs) >= maxTwinMessages {
			m.resync = true
			return
		}
		m.msgs = append(m.msgs, msg)
	})
}

// drained is one batch of mailbox contents.
type drained struct {
	connected, lost, rotate []*session
	msgs                    []twinMessage
	resync, tick            bool
}

func (m *mailbox) drain() drained {
	m.mu.Lock()
	defer m.mu.Unlock()
	d := drained{connected: m.connected, lost: m.lost, rotate: m.rotate, msgs: m.msgs, resync: m.resync, tick: m.tick}
	m.connected, m.lost, m.rotate, m.msgs, m.resync, m.tick = nil, nil, nil, nil, false, false
	return d
}
