package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

type row struct {
	name          string
	value, limit  float64
	limitName     string
	target        string
	met, hasLimit bool
}

type report struct {
	cpu     string
	rows    []row
	latency []string
	notes   []string
}

func (r *report) note(s string) { r.notes = append(r.notes, s) }

func (r *report) machine() {
	r.cpu = "unknown CPU"
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "model name") {
				r.cpu = strings.TrimSpace(strings.SplitN(line, ":", 2)[1])
				break
			}
		}
	}
}

func (r *report) add(name string, v, limit float64, limitName, target string, met bool) {
	r.rows = append(r.rows, row{name: name, value: v, limit: limit, limitName: limitName, target: target, met: met, hasLimit: limit > 0})
}

func (r *report) addLatency(rate int, p50, p99, p999 time.Duration, n int) {
	verdict := ""
	if rate == 1000 {
		verdict = " (target p99 < 5 ms: " + yesNo(p99 < 5*time.Millisecond) + ")"
	}
	r.latency = append(r.latency, fmt.Sprintf("| %d events/s | %s | %s | %s | %d |%s", rate, ms(p50), ms(p99), ms(p999), n, verdict))
}

func (r *report) sizes(bin string) {
	if fi, err := os.Stat(bin); err == nil {
		r.add("Binary size, linux/"+runtime.GOARCH+" stripped (MB)", float64(fi.Size())/1e6, 0, "", "", true)
	}
	if _, err := exec.LookPath("podman"); err != nil {
		return
	}
	for _, img := range []string{"edgegrid:amd64", "edgegrid:arm64v8"} {
		out, err := exec.Command("podman", "--storage-driver", "vfs", "image", "inspect", "--format", "{{.Size}}", img).Output()
		if err != nil {
			continue
		}
		var size float64
		if _, err := fmt.Sscan(strings.TrimSpace(string(out)), &size); err == nil {
			r.add("Image size "+img+" (MB)", size/1e6, 0, "", "< 12 MB", size < 12e6)
		}
	}
}

func (r *report) print(w io.Writer, o options) {
	fmt.Fprintf(w, "Machine: %d cores, %s; %s; %s/%s; load: %d connections, %v per measurement\n\n",
		runtime.NumCPU(), r.cpu, runtime.Version(), runtime.GOOS, runtime.GOARCH, o.conns, o.duration)
	fmt.Fprintln(w, "| Measure | edgegrid | Limit on this machine | Ratio | Target | Met |")
	fmt.Fprintln(w, "|---|---:|---|---:|---|---|")
	for _, x := range r.rows {
		limit, ratio := "", ""
		if x.hasLimit {
			limit = fmt.Sprintf("%s: %s", x.limitName, num(x.limit))
			ratio = fmt.Sprintf("%.0f %%", 100*x.value/x.limit)
		}
		met := ""
		if x.target != "" {
			met = yesNo(x.met)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", x.name, num(x.value), limit, ratio, x.target, met)
	}
	fmt.Fprintln(w, "\nPublish → webhook latency (single-event publishes at a fixed offered rate, timestamps inside the events):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| Offered rate | p50 | p99 | p99.9 | events |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|")
	for _, l := range r.latency {
		fmt.Fprintln(w, l)
	}
	for _, n := range r.notes {
		fmt.Fprintln(w, "\nNote: "+n)
	}
}

func num(v float64) string {
	switch {
	case v >= 1000:
		s := fmt.Sprintf("%.0f", v)
		var b strings.Builder
		for i, c := range s {
			if i > 0 && (len(s)-i)%3 == 0 {
				b.WriteByte(',')
			}
			b.WriteRune(c)
		}
		return b.String()
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
