package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

const q = "?api-version=2019-01-01-preview"

// client has enough keep-alive connections for the generator.
var client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256, MaxConnsPerHost: 256}, Timeout: 30 * time.Second}

func do(method, url, body string) error {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		return fmt.Errorf("%s %s: %d %s", method, url, resp.StatusCode, b)
	}
	return nil
}

// setup creates topic t and a subscription per webhook URL.
func setup(base string, props string, urls ...string) error {
	if err := do("PUT", base+"/topics/t"+q, `{}`); err != nil {
		return err
	}
	for i, u := range urls {
		body := fmt.Sprintf(`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":%q%s}}}}`, u, props)
		if err := do("PUT", fmt.Sprintf("%s/topics/t/eventSubscriptions/s%d%s", base, i, q), body); err != nil {
			return err
		}
	}
	return nil
}

// event is one Event Grid event with a send timestamp and padding.
func event(id string, sentNanos int64, pad int) string {
	return fmt.Sprintf(`{"id":%q,"subject":"bench/s","eventType":"bench","eventTime":"2026-01-01T00:00:00Z","dataVersion":"1","data":{"t":%d,"pad":%q}}`,
		id, sentNanos, strings.Repeat("x", pad))
}

func batch(prefix string, n, pad int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(event(fmt.Sprintf("%s-%d", prefix, i), 0, pad))
	}
	b.WriteByte(']')
	return b.String()
}

// closedLoop posts body to url from conns keep-alive connections for d and
// returns successful requests per second.
func closedLoop(url string, body []byte, conns int, d time.Duration) (float64, error) {
	var ok, failed atomic.Int64
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for c := 0; c < conns; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				resp, err := client.Do(req)
				if err != nil {
					failed.Add(1)
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode == 200 {
					ok.Add(1)
				} else {
					failed.Add(1)
				}
			}
		}()
	}
	start := time.Now()
	wg.Wait()
	if f := failed.Load(); f > ok.Load()/100 {
		return 0, fmt.Errorf("%d of %d requests to %s failed", f, f+ok.Load(), url)
	}
	return float64(ok.Load()) / time.Since(start).Seconds(), nil
}

// openLoop offers single-event publishes at rate events/s for d (send times are
// scheduled, not waited for), stamping each event with its scheduled time.
func openLoop(url string, rate int, d time.Duration, workers int) (sent int64, err error) {
	jobs := make(chan int64, rate)
	var wg sync.WaitGroup
	var failed atomic.Int64
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ts := range jobs {
				if e := do("POST", url, "["+event(fmt.Sprint(ts), ts, 64)+"]"); e != nil {
					failed.Add(1)
				}
			}
		}()
	}
	interval := time.Second / time.Duration(rate)
	start := time.Now()
	for i := 0; ; i++ {
		at := start.Add(time.Duration(i) * interval)
		if at.Sub(start) >= d {
			break
		}
		time.Sleep(time.Until(at))
		jobs <- at.UnixNano()
		sent++
	}
	close(jobs)
	wg.Wait()
	if failed.Load() > 0 {
		return sent, fmt.Errorf("%d publishes failed", failed.Load())
	}
	return sent, nil
}

// openLoopUntil publishes single events at rate per second until stop closes.
func openLoopUntil(url string, rate int, stop <-chan struct{}) (int64, error) {
	jobs := make(chan int64, rate)
	var wg sync.WaitGroup
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ts := range jobs {
				_ = do("POST", url, "["+event(fmt.Sprint(ts), ts, 256)+"]")
			}
		}()
	}
	interval := time.Second / time.Duration(rate)
	start := time.Now()
	var sent int64
	for i := 0; ; i++ {
		select {
		case <-stop:
			close(jobs)
			wg.Wait()
			return sent, nil
		default:
		}
		at := start.Add(time.Duration(i) * interval)
		time.Sleep(time.Until(at))
		jobs <- at.UnixNano()
		sent++
	}
}
