package testenv

import (
	"sync"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
)

// MQTTMessage is a message a Capture received.
type MQTTMessage struct {
	Topic   string
	Payload []byte
	QoS     byte
}

// Capture records what the broker routes to filter, through an inline
// subscription.
type Capture struct {
	mu   sync.Mutex
	msgs []MQTTMessage
}

// Capture subscribes to filter and records every message it matches.
func (b *MQTTBroker) Capture(filter string) *Capture {
	b.tb.Helper()
	c := &Capture{}
	err := b.Server().Subscribe(filter, 1, func(_ *mochi.Client, _ packets.Subscription, pk packets.Packet) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.msgs = append(c.msgs, MQTTMessage{Topic: pk.TopicName, Payload: append([]byte(nil), pk.Payload...), QoS: pk.FixedHeader.Qos})
	})
	if err != nil {
		b.tb.Fatal(err)
	}
	return c
}

// Messages returns a copy of what was captured.
func (c *Capture) Messages() []MQTTMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]MQTTMessage(nil), c.msgs...)
}

// allowAll lets every client connect and use every topic (mochi denies all
// by default; its auth package drags in a YAML dependency).
type allowAll struct{ mochi.HookBase }

func (*allowAll) ID() string { return "allow-all" }

func (*allowAll) Provides(b byte) bool {
	return b == mochi.OnConnectAuthenticate || b == mochi.OnACLCheck
}

func (*allowAll) OnConnectAuthenticate(*mochi.Client, packets.Packet) bool { return true }

func (*allowAll) OnACLCheck(*mochi.Client, string, bool) bool { return true }

// HoldAcks makes the broker hold every client PUBLISH, and so its PUBACK,
// until ReleaseAcks (the inline Publish is held too).
func (b *MQTTBroker) HoldAcks() {
	b.hold.mu.Lock()
	defer b.hold.mu.Unlock()
	if b.hold.gate == nil {
		b.hold.gate = make(chan struct{})
	}
}

// ReleaseAcks lets held publishes through (idempotent).
func (b *MQTTBroker) ReleaseAcks() {
	b.hold.mu.Lock()
	defer b.hold.mu.Unlock()
	if b.hold.gate != nil {
		close(b.hold.gate)
		b.hold.gate = nil
	}
}

// holdAcks blocks OnPublish while its gate is set.
type holdAcks struct {
	mochi.HookBase
	mu   sync.Mutex
	gate chan struct{}
}

func (*holdAcks) ID() string { return "hold-acks" }

func (*holdAcks) Provides(b byte) bool { return b == mochi.OnPublish }

func (h *holdAcks) OnPublish(_ *mochi.Client, pk packets.Packet) (packets.Packet, error) {
	h.mu.Lock()
	g := h.gate
	h.mu.Unlock()
	if g != nil {
		<-g
	}
	return pk, nil
}
