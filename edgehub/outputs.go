package edgehub

import (
	"context"

	ehdest "github.com/edgegrid/edgegrid/destination/edgehub"
)

// publishOverhead is the MQTT PUBLISH packet's size beyond topic and payload:
// a fixed header of at most 5 bytes, the topic length and the packet id.
const publishOverhead = 5 + 2 + 2

// PublishOutput publishes payload with QoS 1 as a message on the module
// output and waits for edgeHub's PUBACK (edgeHub has stored the message for
// its routes). It fails at once with ErrNotConnected while the connection is
// down, so the broker's retry queues take over instead of paho's memory.
func (c *Client) PublishOutput(ctx context.Context, output string, payload []byte) error {
	s := c.sess.Load()
	if !s.open() {
		return ehdest.ErrNotConnected
	}
	tok := s.cl.Publish(c.opts.Identity.OutputTopic(output), 1, false, payload)
	select {
	case <-tok.Done():
		return tok.Error()
	case <-ctx.Done():
		return ctx.Err()
	}
}

// MaxPayload is the largest payload for output that fits edgeHub's 256 KiB
// limit on an incoming MQTT packet.
func (c *Client) MaxPayload(output string) int {
	return maxMessageBytes - publishOverhead - len(c.opts.Identity.OutputTopic(output))
}
