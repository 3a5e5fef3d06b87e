package e2e

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/internal/testenv"
)

// TestSIGTERMDrain: on SIGTERM the module stops accepting, delivers what is
// queued within the grace period, and logs what it loses per subscription.
func TestSIGTERMDrain(t *testing.T) {
	t.Parallel()
	slow, dead := testenv.NewWebhook(t), testenv.NewWebhook(t)
	slow.SetDelay(50 * time.Millisecond)
	dead.Script(503)
	m := startModule(t, "broker__deliveryConcurrency=2", "broker__shutdownGracePeriodInSeconds=5")
	m.must("PUT", m.HTTPURL+"/topics/t"+q, `{}`)
	for name, url := range map[string]string{"slow": slow.URL, "dead": dead.URL} {
		m.must("PUT", m.HTTPURL+"/topics/t/eventSubscriptions/"+name+q,
			`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"`+url+`"}}}}`)
	}
	var batch strings.Builder
	batch.WriteByte('[')
	for i := 0; i < 40; i++ {
		if i > 0 {
			batch.WriteByte(',')
		}
		fmt.Fprintf(&batch, `{"id":"%d","subject":"s","eventType":"t","eventTime":"x","dataVersion":"1"}`, i)
	}
	batch.WriteByte(']')
	m.must("POST", m.HTTPURL+"/topics/t/events"+q, batch.String())
	start := time.Now()
	m.Stop(10 * time.Second)
	took := time.Since(start)
	if m.ExitCode() != 0 {
		t.Fatalf("exit code %d", m.ExitCode())
	}
	if n := slow.Count(); n != 40 {
		t.Fatalf("slow subscriber got %d of 40 during the drain (%v)", n, took)
	}
	lost := m.LogLines("undelivered events lost at shutdown (no event persistence)")
	if len(lost) != 1 || lost[0]["subscription"] != "dead" || lost[0]["lostEvents"] != float64(40) {
		t.Fatalf("loss report %v", lost)
	}
	report(t, "drained 40 events at 2 concurrent 50 ms requests in %v; dead subscription lost %v events", took, lost[0]["lostEvents"])
}

// TestRetryRealSchedule: a subscriber that fails twice and then succeeds gets
// the event, with the binary's fixed schedule: the second attempt one minute
// after the first, the third ten minutes later. Beside it, a subscriber that is
// down (connections refused) for longer than the 1-minute step gets all its
// events at the 10-minute retry once it is back; duplicates are counted. It
// takes eleven minutes of wall time (the binary has no way to shorten its
// schedule), so -short skips it; CI runs it alongside the other tests.
func TestRetryRealSchedule(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 11 minutes; run without -short")
	}
	t.Parallel()
	hook := testenv.NewWebhook(t)
	hook.Script(500, 500, 200)
	down := testenv.NewWebhook(t)
	downAddr, downHandler := down.Listener.Addr().String(), down.Config.Handler
	m := startModule(t)
	m.must("PUT", m.HTTPURL+"/topics/t"+q, `{}`)
	m.must("PUT", m.HTTPURL+"/topics/t/eventSubscriptions/s"+q,
		`{"properties":{"filter":{"subjectBeginsWith":"one"},"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"`+hook.URL+`"}}}}`)
	m.must("PUT", m.HTTPURL+"/topics/t/eventSubscriptions/down"+q,
		`{"properties":{"filter":{"subjectBeginsWith":"many"},"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"`+down.URL+`"}}}}`)
	down.Close()
	m.must("POST", m.HTTPURL+"/topics/t/events"+q, `[{"id":"1","subject":"one","eventType":"t","eventTime":"x","dataVersion":"1"}]`)
	m.must("POST", m.HTTPURL+"/topics/t/events"+q, strings.ReplaceAll(eventBatch("d", 100), `"subject":"s"`, `"subject":"many"`))

	time.Sleep(90 * time.Second) // the down subscriber misses the first attempt and the 1-minute retry
	back := &http.Server{Handler: downHandler, ReadHeaderTimeout: 5 * time.Second}
	ln, err := net.Listen("tcp", downAddr)
	if err != nil {
		t.Fatalf("re-listening on %s: %v", downAddr, err)
	}
	go func() { _ = back.Serve(ln) }()
	defer back.Close()

	reqs := hook.WaitCount(t, 3, 12*time.Minute)
	gap1, gap2 := reqs[1].At.Sub(reqs[0].At), reqs[2].At.Sub(reqs[1].At)
	if gap1 < time.Minute || gap1 > time.Minute+5*time.Second || gap2 < 10*time.Minute || gap2 > 10*time.Minute+5*time.Second {
		t.Fatalf("gaps %v and %v, want 1m and 10m", gap1, gap2)
	}
	for i, want := range []string{"0", "1", "2"} {
		if got := reqs[i].Header.Get("aeg-delivery-count"); got != want {
			t.Fatalf("attempt %d aeg-delivery-count %s", i, got)
		}
	}
	if string(reqs[2].Body) != string(reqs[0].Body) {
		t.Fatal("the delivered event differs from the first attempt")
	}
	testenv.Eventually(t, time.Minute, "the down subscriber's 100 events", func() bool { return len(ids(t, down.Requests())) == 100 })
	dups := 0
	for _, n := range ids(t, down.Requests()) {
		dups += n - 1
	}
	report(t, "attempts at +0, +%v, +%v; subscriber down for 90 s received 100/100 events at the 10-minute retry with %d duplicates",
		gap1.Round(time.Millisecond), (gap1 + gap2).Round(time.Millisecond), dups)
}

// TestMetricsEndpoint: with metrics__reporterType=prometheus the binary serves
// /metrics on both listeners (the documented example URL works); without it,
// /metrics is not found.
func TestMetricsEndpoint(t *testing.T) {
	t.Parallel()
	m := startModule(t, "metrics__reporterType=Prometheus")
	m.must("PUT", m.HTTPURL+"/topics/t"+q, `{}`)
	m.must("POST", m.HTTPURL+"/topics/t/events"+q, `[{"id":"1","subject":"s","eventType":"t","eventTime":"x","dataVersion":"1"}]`)
	for _, base := range []string{m.HTTPURL, m.HTTPSURL} {
		out := m.must("GET", base+"/metrics"+q, "")
		if !strings.Contains(out, `EventsReceived{topic="t"} 1`) || !strings.Contains(out, "process_resident_memory_bytes") {
			t.Fatalf("metrics from %s:\n%s", base, out)
		}
	}
	off := startModule(t)
	if status, _ := off.call("GET", off.HTTPURL+"/metrics", ""); status != 404 {
		t.Fatalf("metrics served while off: %d", status)
	}
}
