package hostconfig_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/hostconfig"
	"github.com/edgegrid/edgegrid/resource"
)

type route = hostconfig.MQTTRoute

func TestParseMQTTRoutes(t *testing.T) {
	cases := map[string]struct {
		in   string
		want hostconfig.MQTTRoutes
	}{
		"the documented example": {"sensors/+/telemetry=telemetry;alarms/#=alarms",
			hostconfig.MQTTRoutes{{Filter: "sensors/+/telemetry", Topic: "telemetry"}, {Filter: "alarms/#", Topic: "alarms"}}},
		"raw route": {"sensors/+/telemetry=telemetry:raw:Contoso.Sensor.Telemetry",
			hostconfig.MQTTRoutes{{Filter: "sensors/+/telemetry", Topic: "telemetry", EventType: "Contoso.Sensor.Telemetry"}}},
		"raw in any case, colons in the type": {"a=t:RAW:urn:contoso:reading",
			hostconfig.MQTTRoutes{{Filter: "a", Topic: "t", EventType: "urn:contoso:reading"}}},
		"blanks and empty routes ignored": {" ; a/b = t1 ;; c = t2 : raw : X Y ;",
			hostconfig.MQTTRoutes{{Filter: "a/b", Topic: "t1"}, {Filter: "c", Topic: "t2", EventType: "X Y"}}},
		"blanks inside a filter kept": {"my sensors/+=t",
			hostconfig.MQTTRoutes{{Filter: "my sensors/+", Topic: "t"}}},
		"two filters, one topic": {"a/#=t;b/#=t",
			hostconfig.MQTTRoutes{{Filter: "a/#", Topic: "t"}, {Filter: "b/#", Topic: "t"}}},
		"dollar topics": {"$SYS/broker/load/#=sys",
			hostconfig.MQTTRoutes{{Filter: "$SYS/broker/load/#", Topic: "sys"}}},
		"colon in the filter": {"urn:a/+=t",
			hostconfig.MQTTRoutes{{Filter: "urn:a/+", Topic: "t"}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := hostconfig.ParseMQTTRoutes(tc.in)
			if err != nil {
				t.Fatalf("ParseMQTTRoutes(%q): %v", tc.in, err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ParseMQTTRoutes(%q) = %+v, want %+v", tc.in, got, tc.want)
			}
			again, err := hostconfig.ParseMQTTRoutes(got.String())
			if err != nil || !reflect.DeepEqual(again, got) {
				t.Errorf("String() = %q does not parse back: %+v, %v", got.String(), again, err)
			}
		})
	}
}

func TestParseMQTTRoutesErrors(t *testing.T) {
	cases := map[string]struct{ in, want string }{
		"only separators":     {";;", "no route"},
		"no equals sign":      {"a/b", `route 1 "a/b": expected MQTT-topic-filter=EventGrid-topic`},
		"empty filter":        {"=t", "route 1 \"=t\": invalid MQTT topic filter: topic filter must not be empty"},
		"empty topic":         {"a=", "Event Grid topic name is empty"},
		"hash not last":       {"a/#/b=t", "'#' must be the last level"},
		"plus inside a level": {"x=t;a/b+=t", `route 2 "a/b+=t": invalid MQTT topic filter: '+' must occupy a whole level`},
		"shared subscription": {"$share/g/a=t", "shared subscriptions"},
		"bad topic name":      {"a=tele metry", `the Event Grid topic name "tele metry" is invalid`},
		"dot in topic name":   {"a=my.topic", "only letters, digits"},
		"topic too long":      {"a=" + strings.Repeat("t", 129), "longer than 128"},
		"duplicate filter":    {"a/+=t1;a/+=t2", `route 2 "a/+=t2": the filter "a/+" appears in more than one route`},
		"unknown mode":        {"a=t:json", `unknown mode "json"`},
		"raw without type":    {"a=t:raw", "a raw route needs an event type"},
		"raw with blank type": {"a=t:raw: ", "a raw route needs an event type"},
		"control character":   {"a=t:raw:x\ty", "without control characters"},
		"type too long":       {"a=t:raw:" + strings.Repeat("x", 257), "longer than 256"},
		"nul in filter":       {"a\x00=t", "NUL"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := hostconfig.ParseMQTTRoutes(tc.in)
			if err == nil {
				t.Fatalf("ParseMQTTRoutes(%q) = %+v, want an error", tc.in, got)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseMQTTRoutes(%q): %v\nwant it to contain %q", tc.in, err, tc.want)
			}
		})
	}
}

// FuzzParseMQTTRoutes: the parser never panics; what it accepts renders
// back to a string that parses to the same routes, every filter is unique,
// and every topic name is one the REST API accepts.
func FuzzParseMQTTRoutes(f *testing.F) {
	for _, s := range []string{
		"sensors/+/telemetry=telemetry;alarms/#=alarms", "a=t:raw:X", " ; a = b ; ", "a/#/b=t",
		"a=t:raw:urn:x;b=u", "=", "a=b=c", "$share/x/y=t", "a=t:RAW:", "é/ü=t", "a=t:raw:x;y",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rs, err := hostconfig.ParseMQTTRoutes(s)
		if err != nil {
			if rs != nil {
				t.Fatalf("ParseMQTTRoutes(%q) returned routes with its error", s)
			}
			return
		}
		seen := map[string]bool{}
		for _, r := range rs {
			if seen[r.Filter] {
				t.Fatalf("ParseMQTTRoutes(%q): duplicate filter %q", s, r.Filter)
			}
			seen[r.Filter] = true
			if err := resource.ValidateName("Topic", r.Topic); err != nil {
				t.Fatalf("ParseMQTTRoutes(%q) accepted topic %q: %v", s, r.Topic, err)
			}
		}
		again, err := hostconfig.ParseMQTTRoutes(rs.String())
		if err != nil || !reflect.DeepEqual(again, rs) {
			t.Fatalf("ParseMQTTRoutes(%q) = %+v; String() %q parses to %+v, %v", s, rs, rs.String(), again, err)
		}
	})
}

// FuzzTopicNameRuleAgrees keeps mqtt__routes' topic-name rule identical to
// the REST API's (resource.ValidateName).
func FuzzTopicNameRuleAgrees(f *testing.F) {
	for _, s := range []string{"telemetry", "a-b_c", "tele metry", "", strings.Repeat("x", 129), "é", "a.b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if strings.ContainsAny(name, ";:=") || strings.TrimSpace(name) != name || name == "" {
			return // not expressible as a route's topic
		}
		_, err := hostconfig.ParseMQTTRoutes("a=" + name)
		want := resource.ValidateName("Topic", name)
		if (err == nil) != (want == nil) {
			t.Fatalf("topic %q: mqtt__routes says %v, the REST API says %v", name, err, want)
		}
	})
}
