package main

import (
	"fmt"
	"sort"
	"time"
)

// measurePublish: single-event publish req/s next to the bare server, and
// events/s with 100-event requests. Nothing subscribes, so the numbers are the
// ingest path (parse, validate, fan-out bookkeeping) against the HTTP limit.
func measurePublish(r *report, o options, bin string) error {
	bare, err := startBare()
	if err != nil {
		return err
	}
	one := []byte("[" + event("e", 0, 64) + "]")
	bareRate, err := closedLoop(bare.URL+"/topics/t/events"+q, one, o.conns, o.duration)
	bare.stop()
	if err != nil {
		return err
	}
	m, err := startModule(bin)
	if err != nil {
		return err
	}
	defer m.stop()
	if err := setup(m.URL, ""); err != nil {
		return err
	}
	rate, err := closedLoop(m.URL+"/topics/t/events"+q, one, o.conns, o.duration)
	if err != nil {
		return err
	}
	r.add("Publish, 1 event per request (req/s)", rate, bareRate, "bare net/http server", "≥ 60 % of bare", rate >= 0.6*bareRate)
	hundred := []byte(batch("b", 100, 64))
	rate100, err := closedLoop(m.URL+"/topics/t/events"+q, hundred, o.conns, o.duration)
	if err != nil {
		return err
	}
	r.add("Publish, 100 events per request (events/s)", rate100*100, 0, "", "≥ 150,000", rate100*100 >= 150_000)
	return nil
}

// measureLatency: publish→webhook latency at fixed offered rates.
func measureLatency(r *report, o options, bin string) error {
	sub, err := newSubscriber()
	if err != nil {
		return err
	}
	defer sub.close()
	sub.record.Store(true)
	m, err := startModule(bin)
	if err != nil {
		return err
	}
	defer m.stop()
	if err := setup(m.URL, "", sub.URL); err != nil {
		return err
	}
	for _, rate := range []int{1000, 5000} {
		sub.reset()
		sent, err := openLoop(m.URL+"/topics/t/events"+q, rate, o.duration, 64)
		if err != nil {
			return err
		}
		if !sub.waitEvents(sent, 30*time.Second) {
			return fmt.Errorf("latency at %d/s: %d of %d events delivered", rate, sub.events.Load(), sent)
		}
		p50, p99, p999, n := sub.percentiles()
		r.addLatency(rate, p50, p99, p999, n)
	}
	return nil
}

// measureDelivery: sustained delivery rate to one webhook with batching off and
// on, next to the subscriber's own req/s limit.
func measureDelivery(r *report, o options, bin string) error {
	sub, err := newSubscriber()
	if err != nil {
		return err
	}
	defer sub.close()
	limit, err := closedLoop(sub.URL, []byte("["+event("x", 0, 64)+"]"), o.conns, o.duration)
	if err != nil {
		return err
	}
	n := 20_000
	if o.quick {
		n = 1_000
	}
	for _, tc := range []struct {
		name  string
		props string
	}{{"off", ""}, {"on (maxEventsPerBatch 10)", `,"maxEventsPerBatch":10`}} {
		rate, err := deliveryRate(bin, sub, tc.props, n)
		if err != nil {
			return err
		}
		r.add("Delivery to one webhook, batching "+tc.name+" (events/s)", rate, limit, "subscriber's own req/s", "", true)
	}
	return nil
}

// deliveryRate queues n events while the subscriber holds its first requests,
// then lets it answer and measures how fast the backlog drains.
func deliveryRate(bin string, sub *subscriber, props string, n int) (float64, error) {
	m, err := startModule(bin, "broker__maxBufferedBytes=1073741824")
	if err != nil {
		return 0, err
	}
	defer m.stop()
	if err := setup(m.URL, props, sub.URL); err != nil {
		return 0, err
	}
	sub.reset()
	sub.pause()
	for sent := 0; sent < n; sent += 100 {
		if err := do("POST", m.URL+"/topics/t/events"+q, batch(fmt.Sprint("d", sent), 100, 64)); err != nil {
			sub.resume()
			return 0, err
		}
	}
	start := time.Now()
	sub.resume()
	if !sub.waitEvents(int64(n), 2*time.Minute) {
		return 0, fmt.Errorf("delivery: %d of %d events arrived", sub.events.Load(), n)
	}
	return float64(n) / time.Since(start).Seconds(), nil
}

// measureMemory: RSS idle, and with a backlog of 1 KB events behind a
// subscriber that refuses connections (events wait in the retry queue).
func measureMemory(r *report, o options, bin string) error {
	m, err := startModule(bin, "broker__maxBufferedBytes=1073741824")
	if err != nil {
		return err
	}
	defer m.stop()
	if err := setup(m.URL, "", "http://127.0.0.1:1/refused"); err != nil {
		return err
	}
	time.Sleep(500 * time.Millisecond)
	idle, err := rss(m.cmd.Process.Pid)
	if err != nil {
		return err
	}
	for sent := 0; sent < o.backlog; sent += 100 {
		if err := do("POST", m.URL+"/topics/t/events"+q, batch(fmt.Sprint("m", sent), 100, 880)); err != nil {
			return err
		}
	}
	time.Sleep(3 * time.Second) // first attempts fail at once; events sit in the 1-minute queue
	full, err := rss(m.cmd.Process.Pid)
	if err != nil {
		return err
	}
	r.add("Resident memory, idle (MB)", float64(idle)/1e6, 0, "", "≤ 12 MB", idle <= 12_000_000)
	r.add(fmt.Sprintf("Resident memory, %d × 1 KB events backlogged (MB)", o.backlog), float64(full)/1e6, 0, "", "", true)
	per := float64(full-idle) / float64(o.backlog)
	r.add("Memory per backlogged 1 KB event (bytes)", per, 0, "", "≤ 1,800", per <= 1800)
	return nil
}

// measureStartup: exec to "listening", median of 5.
func measureStartup(r *report, _ options, bin string) error {
	var ds []time.Duration
	for i := 0; i < 5; i++ {
		m, err := startModule(bin)
		if err != nil {
			return err
		}
		ds = append(ds, m.started)
		m.stop()
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	ms := float64(ds[2]) / float64(time.Millisecond)
	r.add("Start to listening (ms, median of 5)", ms, 0, "", "< 50 ms", ms < 50)
	return nil
}
