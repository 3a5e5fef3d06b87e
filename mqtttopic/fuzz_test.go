package mqtttopic_test

import (
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/mqtttopic"
)

// FuzzMatch checks the validators never panic and Match agrees with
// refMatch, a second implementation written straight from the text of MQTT
// 3.1.1 §4.7, on every valid filter and name.
//
// The oracle used to be mochi-mqtt's subscription index; it does not let '#'
// match the parent level after a '+' ("+/#" does not match "0"), which §4.7.1.2
// requires and which mosquitto does, so it could not serve as the reference.
func FuzzMatch(f *testing.F) {
	for _, s := range [][2]string{
		{"a/+/c", "a/b/c"}, {"a/#", "a"}, {"#", "$SYS/x"}, {"+/+", "/"}, {"a//#", "a//"},
		{"$x/+", "$x/y"}, {"+", ""}, {"a/+", "a"}, {"/#", "/"}, {"+/#", "0"}, {"+/+/#", "a/b"},
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
		want := refMatch(filter, topic)
		if got := mqtttopic.Match(filter, topic); got != want {
			t.Fatalf("Match(%q, %q) = %v; the reference says %v", filter, topic, got, want)
		}
	})
}

// refMatch is the slow, obvious reading of §4.7: compare level lists; '+'
// stands for exactly one level, '#' (always last) for the parent level and
// any number of levels below it; a filter whose first level is a wildcard
// does not match a topic whose first character is '$' (§4.7.2).
func refMatch(filter, topic string) bool {
	if strings.HasPrefix(topic, "$") && (strings.HasPrefix(filter, "+") || strings.HasPrefix(filter, "#")) {
		return false
	}
	return refLevels(strings.Split(filter, "/"), strings.Split(topic, "/"))
}

func refLevels(f, t []string) bool {
	switch {
	case len(f) == 0:
		return len(t) == 0
	case f[0] == "#":
		return true // the parent level (t empty) or any levels below it
	case len(t) == 0:
		return false
	case f[0] != "+" && f[0] != t[0]:
		return false
	}
	return refLevels(f[1:], t[1:])
}
