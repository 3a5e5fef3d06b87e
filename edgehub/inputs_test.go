package edgehub_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

func (e *env) webhookSub(t *testing.T, topic string) *testenv.Webhook {
	t.Helper()
	hook := testenv.NewWebhook(t)
	e.topic(t, topic)
	e.subscribe(t, topic, "hook", destination.Endpoint{Type: destination.WebHook, URL: hook.URL})
	return hook
}

// TestInputBecomesEvent: a message routed to a module input is published to
// the topic of the same name (or the one the input is mapped to), delivered
// like any event, and acknowledged.
func TestInputBecomesEvent(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{routes: map[string]string{"sensorInput": "telemetry"}})
	same := e.webhookSub(t, "alarms")
	mapped := e.webhookSub(t, "telemetry")
	if err := e.hub.SendInput("alarms", []byte(event)); err != nil {
		t.Fatal(err)
	}
	if err := e.hub.SendInput("sensorInput", []byte("["+event+","+event+"]")); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	body := same.WaitCount(t, 1, 10*time.Second)[0].Body
	if err := json.Unmarshal(body, &got); err != nil || got[0]["topic"] != "alarms" || got[0]["id"] != "e1" {
		t.Fatalf("alarms got %s", body)
	}
	mapped.WaitCount(t, 2, 10*time.Second)
	testenv.Eventually(t, 5*time.Second, "both inputs acknowledged", func() bool { return e.hub.AckedInputs() == 2 })
	if st := e.c.Stats(); st.InputsAccepted != 2 || len(st.InputsDropped) != 0 {
		t.Fatalf("stats %+v", st)
	}
	e.noDenials(t)
}

// TestBadInputAckedAndCounted: messages that can never become events (not
// JSON, wrong schema, no such topic) are acknowledged, counted per cause and
// dropped, and good ones after them still flow.
func TestBadInputAckedAndCounted(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	hook := e.webhookSub(t, "telemetry")
	for _, in := range []struct{ input, body string }{
		{"telemetry", "not json"}, {"telemetry", `{"id":"x"}`}, {"nosuchtopic", event}, {"nosuchtopic", event}, {"telemetry", event},
	} {
		if err := e.hub.SendInput(in.input, []byte(in.body)); err != nil {
			t.Fatal(err)
		}
	}
	testenv.Eventually(t, 10*time.Second, "every input acknowledged", func() bool { return e.hub.AckedInputs() == 5 })
	hook.WaitCount(t, 1, 5*time.Second)
	want := map[string]int64{
		"not valid JSON: telemetry": 1, "invalid event for the topic's input schema: telemetry": 1,
		"no topic for this input: nosuchtopic": 2,
	}
	st := e.c.Stats()
	if st.InputsAccepted != 1 || len(st.InputsDropped) != len(want) {
		t.Fatalf("stats %+v", st)
	}
	for k, n := range want {
		if st.InputsDropped[k] != n {
			t.Errorf("dropped[%q] = %d, want %d (all: %v)", k, st.InputsDropped[k], n, st.InputsDropped)
		}
	}
	testenv.Never(t, 100*time.Millisecond, "a bad input delivered", func() bool { return hook.Count() > 1 })
}

// TestBusyInputWaits: while the broker is over its memory cap an input
// message is neither dropped nor acknowledged; once memory frees up it is
// published and acknowledged.
func TestBusyInputWaits(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{maxBuffered: 4096})
	hook := e.webhookSub(t, "telemetry")
	hook.Hang()
	for {
		_, err := e.b.PublishJSON("telemetry", []byte(event), eventschema.ShapeAny)
		if errors.Is(err, broker.ErrBusy) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := e.hub.SendInput("telemetry", []byte(`{"id":"from-input","eventType":"t","subject":"s","eventTime":"2019-07-28T21:03:07+00:00","dataVersion":"1","data":{}}`)); err != nil {
		t.Fatal(err)
	}
	testenv.Never(t, 300*time.Millisecond, "input acknowledged while the broker is busy", func() bool { return e.hub.AckedInputs() > 0 })
	hook.Unhang()
	testenv.Eventually(t, 10*time.Second, "input acknowledged once memory freed", func() bool { return e.hub.AckedInputs() == 1 })
	testenv.Eventually(t, 10*time.Second, "input delivered", func() bool {
		for _, r := range hook.Requests() {
			if strings.Contains(string(r.Body), `"id":"from-input"`) {
				return true
			}
		}
		return false
	})
	if st := e.c.Stats(); st.InputsAccepted != 1 || len(st.InputsDropped) != 0 {
		t.Fatalf("stats %+v", st)
	}
}
