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
	m, err := startModule(bin, "metrics__reporterType=prometheus", "broker__defaultMaxDeliveryAttempts=3")
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
	fmt.Printf("Soak: %v at %d events/s to two subscriptions (one healthy, one failing every third request, 3 attempts max)\n\n", *dur, *rate)
	fmt.Println("| elapsed | RSS (MB) | goroutines | heap in use (MB) | delivered (healthy) |")
	fmt.Println("|---:|---:|---:|---:|---:|")
	start := time.Now()
	for elapsed := time.Duration(0); elapsed <= *dur; elapsed = time.Since(start).Round(time.Second) {
		r, _ := rss(m.cmd.Process.Pid)
		g, h := scrapeGauges(m.URL)
		fmt.Printf("| %v | %.1f | %.0f | %.1f | %d |\n", elapsed, float64(r)/1e6, g, h/1e6, good.events.Load())
		if elapsed >= *dur {
			break
		}
		time.Sleep(min(*every, *dur-elapsed))
	}
	close(stop)
	time.Sleep(time.Second)
	fmt.Printf("\nPublished %d events; the healthy subscriber received %d.\n", sent.Load(), good.events.Load())
	return nil
}

// scrapeGauges reads go_goroutines and go_memstats_heap_alloc_bytes.
func scrapeGauges(base string) (goroutines, heap float64) {
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		return 0, 0
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "go_goroutines "):
			fmt.Sscan(strings.TrimPrefix(line, "go_goroutines "), &goroutines)
		case strings.HasPrefix(line, "go_memstats_heap_alloc_bytes "):
			fmt.Sscan(strings.TrimPrefix(line, "go_memstats_heap_alloc_bytes "), &heap)
		}
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return goroutines, heap
}

func init() { subcommands["soak"] = soak }

// subcommands are the tool's other modes.
var subcommands = map[string]func([]string) error{}
