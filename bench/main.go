// Command bench measures the real edgegrid binary against the limits of the
// machine it runs on, in one run, and prints a markdown table of absolute
// numbers and ratios.
//
//	go run ./bench            full run (about 2 minutes)
//	go run ./bench -quick     smoke run (seconds; CI uses it, numbers meaningless)
//	go run ./bench soak       10-minute soak: RSS and goroutines sampled under load
//
// The module and a bare net/http server (the limit for publish req/s) run as
// child processes; the load generator and the webhook subscriber run in this
// process. See BENCHMARKS.md for the method.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"
)

type options struct {
	binary   string
	duration time.Duration
	quick    bool
	backlog  int
	conns    int
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "baresrv" {
		bareServer(os.Args[2:])
		return
	}
	if len(os.Args) > 1 {
		if cmd, ok := subcommands[os.Args[1]]; ok {
			if err := cmd(os.Args[2:]); err != nil {
				fmt.Fprintln(os.Stderr, "bench:", err)
				os.Exit(1)
			}
			return
		}
	}
	var o options
	flag.StringVar(&o.binary, "binary", "", "edgegrid binary to measure (default: build ./module)")
	flag.DurationVar(&o.duration, "duration", 10*time.Second, "duration of each throughput measurement")
	flag.BoolVar(&o.quick, "quick", false, "smoke run: short durations, small backlog")
	flag.IntVar(&o.backlog, "backlog", 100_000, "events backlogged for the memory measurement")
	flag.IntVar(&o.conns, "conns", 16, "concurrent keep-alive connections of the load generator")
	flag.Parse()
	if o.quick {
		o.duration, o.backlog = time.Second, 2_000
	}
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	bin, cleanup, err := binary(o.binary)
	if err != nil {
		return err
	}
	defer cleanup()
	r := &report{}
	r.machine()
	steps := []struct {
		name string
		f    func(*report, options, string) error
	}{
		{"publish throughput", measurePublish}, {"publish to delivery latency", measureLatency},
		{"delivery rate", measureDelivery}, {"MQTT ingest", measureMQTT}, {"memory", measureMemory},
		{"start-up time", measureStartup},
	}
	for _, step := range steps {
		fmt.Fprintln(os.Stderr, "bench: measuring", step.name)
		if err := step.f(r, o, bin); err != nil {
			return fmt.Errorf("%s: %w", step.name, err)
		}
	}
	r.sizes(bin)
	r.print(os.Stdout, o)
	return nil
}
