package edgehub

import (
	"testing"

	mqtt "github.com/eclipse/paho.mqtt.golang"
	"github.com/eclipse/paho.mqtt.golang/packets"
)

// TestCopyingStoreGetCopiesPublish: what resume gets from the store can be
// marked DUP without touching the packet Publish handed to paho's writer;
// other packets are returned as stored.
func TestCopyingStoreGetCopiesPublish(t *testing.T) {
	st := copyingStore{mqtt.NewMemoryStore()}
	st.Open()
	defer st.Close()
	pub := packets.NewControlPacket(packets.Publish).(*packets.PublishPacket)
	pub.Qos, pub.MessageID, pub.TopicName, pub.Payload = 1, 7, "devices/d/modules/m/messages/events/", []byte("x")
	st.Put("o.7", pub)
	got, ok := st.Get("o.7").(*packets.PublishPacket)
	if !ok || got == pub {
		t.Fatalf("Get returned %T %p, want a copy of %p", got, got, pub)
	}
	got.Dup = true
	if pub.Dup {
		t.Error("marking the copy DUP changed the stored packet")
	}
	if got.MessageID != 7 || got.TopicName != pub.TopicName || string(got.Payload) != "x" || got.Qos != 1 {
		t.Errorf("copy %v differs from %v", got, pub)
	}
	rel := packets.NewControlPacket(packets.Pubrel).(*packets.PubrelPacket)
	rel.MessageID = 8
	st.Put("o.8", rel)
	if st.Get("o.8") != rel {
		t.Error("a PUBREL was not returned as stored")
	}
	if st.Get("o.9") != nil {
		t.Error("a missing key returned a packet")
	}
}
