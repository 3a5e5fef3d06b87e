package edgehub_test

import (
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/internal/testenv"
)

// TestTwinRequestTimeout: an unanswered GET times out and is asked again.
func TestTwinRequestTimeout(t *testing.T) {
	t.Parallel()
	clock := testenv.NewManualClock()
	e := newEnv(t, envOptions{clock: clock, noStart: true})
	e.hub.SetDesired(t, `{"topics": {"late": {}}}`)
	e.hub.DropTwinRequests(1)
	e.c.Start(e.b)
	testenv.Eventually(t, 10*time.Second, "connected", e.c.Connected)
	testenv.Never(t, 200*time.Millisecond, "twin answered", func() bool { return e.hub.TwinGets() > 0 })
	testenv.Eventually(t, 10*time.Second, "GET asked again", func() bool {
		clock.Advance(time.Second) // the tick re-arms itself on the manual clock as the loop runs
		return e.hub.TwinGets() > 0
	})
	testenv.Eventually(t, 10*time.Second, "GET asked again and applied", func() bool { _, err := e.b.Topic("late"); return err == nil })
}

// TestTwinBadDesired: desired properties of the wrong shape are reported as a
// boot-up error.
func TestTwinBadDesired(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noStart: true})
	e.hub.SetDesired(t, `{"topics": "twinTopic1"}`)
	e.start(t)
	testenv.Eventually(t, 10*time.Second, "boot-up error reported", func() bool {
		return path(e.hub.Reported(), "errors", "bootupMessage") == "desired properties JSON parsing failed"
	})
	if s, _ := path(e.hub.Reported(), "errors", "bootupException").(string); !strings.Contains(s, "'topics' must be an object") {
		t.Fatalf("bootupException %q", s)
	}
}

// TestTwinReportRefused: after edgeHub refuses reported properties the client
// waits a minute before sending them again, then they get through.
func TestTwinReportRefused(t *testing.T) {
	t.Parallel()
	clock := testenv.NewManualClock()
	e := newEnv(t, envOptions{clock: clock})
	testenv.Eventually(t, 10*time.Second, "first report", func() bool { return e.hub.TwinPatches() == 1 })
	e.hub.RefuseReports(1)
	e.topic(t, "later")
	testenv.Eventually(t, 10*time.Second, "report refused", func() bool {
		clock.Advance(time.Second)
		return e.hub.TwinPatches() == 2
	})
	start := clock.Now()
	testenv.Eventually(t, 10*time.Second, "report sent again", func() bool {
		clock.Advance(time.Second)
		return e.hub.TwinPatches() == 3
	})
	if waited := clock.Now().Sub(start); waited < 55*time.Second {
		t.Fatalf("sent again after %v; it must wait about a minute", waited)
	}
	if path(e.hub.Reported(), "topics", "later") == nil {
		t.Fatalf("reported %v", e.hub.Reported())
	}
}
