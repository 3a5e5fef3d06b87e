package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// soak runs the module at a moderate steady load for a long time and samples
// its resident memory and goroutine count: both must level off, not grow.
//
//	go run ./bench soak [-duration 10m] [-rate 500] [-every 30s]
func soak(args []string) error {
	fs := flag.NewFlagSet("soak", flag.ExitOnError)
	dur := fs.Duration("duration", 10*time.Minute, "how long to run")
	rate := fs.Int("rate", 500, "events published per second")
	every := fs.Duration("every", 30*time.Second, "sampling interval")
	attempts := fs.Int("attempts", 2, "the failing subscription's maxDeliveryAttempts (2: its retries turn over through the 1-minute queue, so the backlog is steady after a minute; 3 also fills the 10-minute queue, which turns over only after 11 minutes)")
	binPath := fs.String("binary", "", "edgegrid binary (default: build ./module)")
	_ = fs.Parse(args)
	bin, cleanup, err := binary(*binPath)
	if err != nil {
		return err
	}
	defer cleanup()
	good, err := newSubscriber()
	if err != nil {
		return err
	}
	defer good.close()
	flaky, err := newSubscriber()
	if err != nil {
		return err
	}
	defer flaky.close()
	flaky.failEvery(3) // every third request fails: retries, drops and the retry queues stay busy
	m, err := startModule(bin, "metrics__reporterType=prometheus", fmt.Sprintf("broker__defaultMaxDeliveryAttempts=%d", *attempts))
	if err != nil {
		return err
	}
	defer m.stop()
	if err := setup(m.URL, "", good.URL, flaky.URL); err != nil {
		return err
	}
	var sent atomic.Int64
	stop := make(chan struct{})
	go func() {
		n, _ := openLoopUntil(m.URL+"/topics/t/events"+q, *rate, stop)
		sent.Store(n)
	}()
	fmt.Printf("Soak: %v at %d events/s to two subscriptions (one healthy, one failing every third request, %d attempts max)\n\n", *dur, *rate, *attempts)
	fmt.Println("| elapsed | RSS (MB) | goroutines | heap in use (MB) | retry queues (events) | buffered (MB) | delivered (healthy) |")
	fmt.Println("|---:|---:|---:|---:|---:|---:|---:|")
	var samples []soakSample
	start := time.Now()
	for elapsed := time.Duration(0); elapsed <= *dur; elapsed = time.Since(start).Round(time.Second) {
		r, _ := rss(m.cmd.Process.Pid)
		g := scrapeGauges(m.URL)
		s := soakSample{elapsed, float64(r) / 1e6, g.goroutines}
		samples = append(samples, s)
		fmt.Printf("| %v | %.1f | %.0f | %.1f | %.0f | %.1f | %d |\n", elapsed, s.rssMB, g.goroutines, g.heap/1e6, g.queued, g.buffered/1e6, good.events.Load())
		if elapsed >= *dur {
			break
		}
		time.Sleep(min(*every, *dur-elapsed))
	}
	close(stop)
	time.Sleep(time.Second)
	fmt.Printf("\nPublished %d events; the healthy subscriber received %d.\n", sent.Load(), good.events.Load())
	fmt.Println(soakVerdict(samples))
	return nil
}

type soakSample struct {
	elapsed    time.Duration
	rssMB      float64
	goroutines float64
}

// soakVerdict compares the second half of the run with its midpoint: once the
// retry backlog is steady, RSS and goroutines must stay level.
func soakVerdict(s []soakSample) string {
	if len(s) < 3 {
		return "Too few samples for a verdict."
	}
	mid := s[len(s)/2]
	last := s[len(s)-1]
	maxG := 0.0
	for _, x := range s[len(s)/2:] {
		maxG = max(maxG, x.goroutines)
	}
	growth := (last.rssMB - mid.rssMB) / mid.rssMB * 100
	verdict := "level"
	if growth > 10 {
		verdict = "GROWING"
	}
	return fmt.Sprintf("Second half (%v to %v): RSS %.1f → %.1f MB (%+.1f %%), at most %.0f goroutines: %s.",
		mid.elapsed, last.elapsed, mid.rssMB, last.rssMB, growth, maxG, verdict)
}

type gauges struct{ goroutines, heap, queued, buffered float64 }

// scrapeGauges reads the process gauges, the retry queue depths and the
// buffered bytes from /metrics.
func scrapeGauges(base string) (g gauges) {
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		return g
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Text()
		value := func() float64 {
			var v float64
			fmt.Sscan(line[strings.LastIndexByte(line, ' ')+1:], &v)
			return v
		}
		switch {
		case strings.HasPrefix(line, "go_goroutines "):
			g.goroutines = value()
		case strings.HasPrefix(line, "go_memstats_heap_alloc_bytes "):
			g.heap = value()
		case strings.HasPrefix(line, "edgegrid_buffered_bytes "):
			g.buffered = value()
		case strings.HasPrefix(line, "edgegrid_queue_depth{") && !strings.Contains(line, `queue="ready"`):
			g.queued += value()
		}
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return g
}

func init() { subcommands["soak"] = soak }

// subcommands are the tool's other modes.
var subcommands = map[string]func([]string) error{}
