package metrics

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// startTime is when the process started (close enough: package init).
var startTime = time.Now()

// clockTicks is USER_HZ, 100 on every Linux architecture edgegrid ships for.
const clockTicks = 100

// processFamilies reads /proc/self (Linux) and the Go runtime.
func processFamilies() []*family {
	var out []*family
	if cpu, ok := cpuSeconds(); ok {
		f := &family{name: "process_cpu_seconds_total", help: "User and system CPU time spent, in seconds.", kind: counter}
		f.add(cpu)
		out = append(out, f)
	}
	if rss, vsz, ok := memory(); ok {
		r := &family{name: "process_resident_memory_bytes", help: "Resident memory size in bytes.", kind: gauge}
		r.add(rss)
		v := &family{name: "process_virtual_memory_bytes", help: "Virtual memory size in bytes.", kind: gauge}
		v.add(vsz)
		out = append(out, r, v)
	}
	if fds, err := os.ReadDir("/proc/self/fd"); err == nil {
		f := &family{name: "process_open_fds", help: "Open file descriptors.", kind: gauge}
		f.add(float64(len(fds)))
		out = append(out, f)
	}
	st := &family{name: "process_start_time_seconds", help: "Start time of the process since the Unix epoch, in seconds.", kind: gauge}
	st.add(float64(startTime.UnixNano()) / 1e9)
	gr := &family{name: "go_goroutines", help: "Goroutines that currently exist.", kind: gauge}
	gr.add(float64(runtime.NumGoroutine()))
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heap := &family{name: "go_memstats_heap_alloc_bytes", help: "Heap bytes allocated and in use.", kind: gauge}
	heap.add(float64(ms.HeapAlloc))
	sys := &family{name: "go_memstats_sys_bytes", help: "Bytes obtained from the system.", kind: gauge}
	sys.add(float64(ms.Sys))
	return append(out, st, gr, heap, sys)
}

// cpuSeconds reads utime+stime from /proc/self/stat.
func cpuSeconds() (float64, bool) {
	data, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0, false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')') // the command name may contain spaces
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0, false
	}
	ut, err1 := strconv.ParseFloat(f[11], 64)
	stime, err2 := strconv.ParseFloat(f[12], 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return (ut + stime) / clockTicks, true
}

// memory reads resident and virtual size from /proc/self/statm.
func memory() (rss, vsz float64, ok bool) {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, 0, false
	}
	f := strings.Fields(string(data))
	if len(f) < 2 {
		return 0, 0, false
	}
	pages, err1 := strconv.ParseFloat(f[0], 64)
	res, err2 := strconv.ParseFloat(f[1], 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	ps := float64(os.Getpagesize())
	return res * ps, pages * ps, true
}
