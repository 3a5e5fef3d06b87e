package mqtt_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/destination/mqtt"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

func TestValidateEndpoint(t *testing.T) {
	cases := map[string]struct {
		topic string
		want  string // "" for valid
	}{
		"plain":          {"events/out", ""},
		"unicode, blank": {"évents/a b", ""},
		"empty":          {"", "Topic must be specified"},
		"plus":           {"events/+", "must not contain '+' or '#'"},
		"hash":           {"events/#", "must not contain '+' or '#'"},
		"dollar":         {"$SYS/x", "reserved for the MQTT broker"},
		"nul":            {"a\x00b", "NUL"},
		"too long":       {strings.Repeat("a", 65536), "65535"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := mqtt.ValidateEndpoint(&destination.Endpoint{Type: destination.Mqtt, MqttTopic: tc.topic})
			if tc.want == "" {
				if err != nil {
					t.Errorf("ValidateEndpoint(%q): %v", tc.topic, err)
				}
				return
			}
			if !errors.Is(err, destination.ErrInvalidEndpoint) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ValidateEndpoint(%.20q) = %v, want ErrInvalidEndpoint saying %q", tc.topic, err, tc.want)
			}
		})
	}
}

func TestDisabledRefuses(t *testing.T) {
	ep := &destination.Endpoint{Type: destination.Mqtt, MqttTopic: "out"}
	err := mqtt.Disabled{}.Validate(ep)
	if !errors.Is(err, destination.ErrInvalidEndpoint) || !errors.Is(err, mqtt.ErrDisabled) || !strings.Contains(err.Error(), "set mqtt__url") {
		t.Errorf("Validate: %v", err)
	}
	if s, err := (mqtt.Disabled{}).New(ep); s != nil || err == nil {
		t.Errorf("New: %v, %v", s, err)
	}
}

func TestNewFactoryChecksOptions(t *testing.T) {
	for _, o := range []mqtt.Options{{URL: "http://x:1", ClientID: "c"}, {URL: "tcp://x:1"}, {URL: "::", ClientID: "c"}} {
		if _, err := mqtt.NewFactory(o); err == nil {
			t.Errorf("NewFactory(%+v) succeeded", o)
		}
	}
}

// newFactory returns a connected factory and a sender to topic.
func newFactory(t *testing.T, mq *testenv.MQTTBroker, mod func(*mqtt.Options)) (*mqtt.Factory, destination.Sender) {
	t.Helper()
	o := mqtt.Options{URL: mq.URL(), ClientID: "edgegrid-pub", ReconnectMax: time.Second}
	if mod != nil {
		mod(&o)
	}
	f, err := mqtt.NewFactory(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	s, err := f.New(&destination.Endpoint{Type: destination.Mqtt, MqttTopic: "events/out"})
	if err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 10*time.Second, "connected", f.Connected)
	return f, s
}

func delivery(ids ...string) *destination.Delivery {
	d := &destination.Delivery{Subscription: "s", Topic: "t", Schema: eventschema.Custom}
	for _, id := range ids {
		d.Events = append(d.Events, &eventschema.Event{Raw: []byte(`{"id":"` + id + `"}`), ID: id})
	}
	return d
}
