package e2e

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/internal/testenv"
)

// eventBatch builds n Event Grid events with ids prefix-i.
func eventBatch(prefix string, n int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"%s-%d","subject":"s","eventType":"t","eventTime":"x","dataVersion":"1","data":{"pad":"%s"}}`, prefix, i, strings.Repeat("p", 200))
	}
	b.WriteByte(']')
	return b.String()
}

// ids counts deliveries per event id across a webhook's requests.
func ids(t *testing.T, reqs []testenv.Request) map[string]int {
	t.Helper()
	seen := map[string]int{}
	for _, r := range reqs {
		var evs []struct{ ID string }
		if err := json.Unmarshal(r.Body, &evs); err != nil {
			continue // refused or garbage answers do not matter here
		}
		for _, e := range evs {
			seen[e.ID]++
		}
	}
	return seen
}

// TestSubscriberDownThenBack: the subscriber is unreachable (connection
// refused) past the 1-minute retry step, then comes back on the same address:
// every event arrives; duplicates are counted and reported.
func TestSubscriberDownThenBack(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the real 1-minute retry; run without -short")
	}
	t.Parallel()
	hook := testenv.NewWebhook(t)
	addr := hook.Listener.Addr().String()
	m := startModule(t)
	m.must("PUT", m.HTTPURL+"/topics/t"+q, `{}`)
	m.must("PUT", m.HTTPURL+"/topics/t/eventSubscriptions/s"+q,
		`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"`+hook.URL+`"}}}}`)
	hook.Close() // down: connections refused
	m.must("POST", m.HTTPURL+"/topics/t/events"+q, eventBatch("e", 50))
	time.Sleep(2 * time.Second) // let the first attempts fail (they fail at once: refused)
	back := httptest.NewUnstartedServer(hook.Config.Handler)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("re-listening on %s: %v", addr, err)
	}
	back.Listener = ln
	back.Start()
	defer back.Close()
	testenv.Eventually(t, 90*time.Second, "all 50 events after the 1-minute retry", func() bool { return len(ids(t, hook.Requests())) == 50 })
	dups := 0
	for _, n := range ids(t, hook.Requests()) {
		dups += n - 1
	}
	report(t, "subscriber down for the first attempt, back before the 1-minute retry: 50/50 delivered, %d duplicates", dups)
}

// TestMisbehavingSubscribers: subscribers that hang, answer slowly, reset
// connections or answer garbage do not hold up a healthy subscription.
func TestMisbehavingSubscribers(t *testing.T) {
	t.Parallel()
	good := testenv.NewWebhook(t)
	hang := testenv.NewWebhook(t)
	hang.Hang()
	slow := testenv.NewWebhook(t)
	slow.SetDelay(2 * time.Second)
	garbage := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(200)
		_, _ = w.Write([]byte("\x00\xffnot json at all"))
	}))
	defer garbage.Close()
	reset := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hj, _ := w.(http.Hijacker)
		c, _, _ := hj.Hijack()
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetLinger(0) // RST instead of FIN
		}
		_ = c.Close()
	}))
	defer reset.Close()
	m := startModule(t, "broker__deliveryConcurrency=2")
	m.must("PUT", m.HTTPURL+"/topics/t"+q, `{}`)
	for name, url := range map[string]string{"good": good.URL, "hang": hang.URL, "slow": slow.URL, "garbage": garbage.URL, "reset": reset.URL} {
		m.must("PUT", m.HTTPURL+"/topics/t/eventSubscriptions/"+name+q,
			`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"`+url+`"}}}}`)
	}
	start := time.Now()
	for i := 0; i < 10; i++ {
		m.must("POST", m.HTTPURL+"/topics/t/events"+q, eventBatch(fmt.Sprint("b", i), 10))
	}
	good.WaitCount(t, 100, 10*time.Second)
	took := time.Since(start)
	if n := len(ids(t, good.Requests())); n != 100 {
		t.Fatalf("healthy subscriber got %d distinct events", n)
	}
	report(t, "healthy subscriber: 100 events in %v beside hanging, slow (2 s), garbage-answering and resetting subscribers; hanging holds %d requests",
		took.Round(time.Millisecond), hang.Count())
	hang.Unhang()
}

// TestOverload: above the buffer cap publishers get 503 with Retry-After, the
// buffer stays under the cap, and every accepted event is delivered afterwards.
func TestOverload(t *testing.T) {
	t.Parallel()
	hook := testenv.NewWebhook(t)
	hook.Hang()
	const limit = 1 << 20
	m := startModule(t, fmt.Sprintf("broker__maxBufferedBytes=%d", limit), "metrics__reporterType=prometheus")
	m.must("PUT", m.HTTPURL+"/topics/t"+q, `{}`)
	m.must("PUT", m.HTTPURL+"/topics/t/eventSubscriptions/s"+q,
		`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"`+hook.URL+`"}}}}`)
	var mu sync.Mutex
	accepted, refused := map[string]bool{}, 0
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				batch := fmt.Sprintf("w%d-%d", w, i)
				req, _ := http.NewRequest("POST", m.HTTPURL+"/topics/t/events"+q, strings.NewReader(eventBatch(batch, 10)))
				req.Header.Set("Content-Type", "application/json")
				resp, err := m.client.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				mu.Lock()
				switch {
				case resp.StatusCode == 200:
					for j := 0; j < 10; j++ {
						accepted[fmt.Sprintf("%s-%d", batch, j)] = true
					}
				case resp.StatusCode == 503 && resp.Header.Get("Retry-After") != "":
					refused++
				default:
					t.Errorf("status %d", resp.StatusCode)
				}
				mu.Unlock()
			}
		}(w)
	}
	wg.Wait()
	if refused == 0 {
		t.Fatal("no request was refused above the cap")
	}
	out := m.must("GET", m.HTTPURL+"/metrics", "")
	var buffered float64
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "edgegrid_buffered_bytes ") {
			fmt.Sscan(strings.TrimPrefix(line, "edgegrid_buffered_bytes "), &buffered)
		}
	}
	if buffered <= 0 || buffered > limit {
		t.Fatalf("buffered bytes %v, cap %d", buffered, limit)
	}
	hook.Script(200)
	hook.Unhang()
	testenv.Eventually(t, 30*time.Second, "every accepted event delivered", func() bool {
		got := ids(t, hook.Requests())
		for id := range accepted {
			if got[id] == 0 {
				return false
			}
		}
		return true
	})
	report(t, "overload: %d events accepted, %d requests refused with 503, buffer held %.0f of %d bytes when publishing stopped; all accepted delivered",
		len(accepted), refused, buffered, limit)
}
