package mqtttopic_test

import (
	"testing"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"

	"github.com/edgegrid/edgegrid/mqtttopic"
)

// FuzzMatch checks the validators never panic and Match agrees with an
// independent implementation, mochi-mqtt's subscription index, on every valid
// filter and name.
func FuzzMatch(f *testing.F) {
	for _, s := range [][2]string{
		{"a/+/c", "a/b/c"}, {"a/#", "a"}, {"#", "$SYS/x"}, {"+/+", "/"}, {"a//#", "a//"},
		{"$x/+", "$x/y"}, {"+", ""}, {"a/+", "a"}, {"/#", "/"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, filter, topic string) {
		ferr := mqtttopic.ValidateFilter(filter)
		nerr := mqtttopic.ValidateName(topic)
		_ = mqtttopic.ValidatePublishName(topic)
		if ferr != nil || nerr != nil {
			return
		}
		idx := mochi.NewTopicsIndex()
		idx.Subscribe("c", packets.Subscription{Filter: filter, Qos: 1})
		want := len(idx.Subscribers(topic).Subscriptions) == 1
		if got := mqtttopic.Match(filter, topic); got != want {
			t.Fatalf("Match(%q, %q) = %v; mochi says %v", filter, topic, got, want)
		}
	})
}
