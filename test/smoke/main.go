// Command smoke checks a built edgegrid from the outside, as a user would: it
// creates a topic and a WebHook subscription through the REST API, publishes
// one event, and waits until its own subscriber receives exactly that event.
// It exits 0 when the event arrived and 1 otherwise, so a CI step fails when
// delivery does not work.
//
// Against a running module (a container with its ports mapped):
//
//	smoke -api https://127.0.0.1:4438 -listen 0.0.0.0:0 -callback-host host.containers.internal
//
// Or starting the module itself on random loopback ports (for instance an
// arm64 binary under emulation), which also runs its healthcheck command and
// requires a clean exit after SIGTERM:
//
//	smoke -exec "qemu-aarch64-static arm64/edgegrid"
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "smoke: FAIL:", err)
		os.Exit(1)
	}
}

// options are the command-line settings.
type options struct {
	api          string        // base URL of a running module
	exec         string        // command that starts the module (instead of api)
	listen       string        // the subscriber's listen address
	callbackHost string        // host name the module uses to reach the subscriber
	topic        string        // topic and subscription names
	existing     bool          // the topic and subscription must exist already
	timeout      time.Duration // for the whole check
}

func parse(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("smoke", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.api, "api", "", "base URL of a running module, e.g. https://127.0.0.1:4438")
	fs.StringVar(&o.exec, "exec", "", "command line that starts the module (split on spaces); used instead of -api")
	fs.StringVar(&o.listen, "listen", "127.0.0.1:0", "address the subscriber listens on")
	fs.StringVar(&o.callbackHost, "callback-host", "", "host the module calls the subscriber at (default: the -listen host)")
	fs.StringVar(&o.topic, "topic", "smokeTopic", "topic name; the subscription is <topic>Sub")
	fs.BoolVar(&o.existing, "existing", false, "require the topic and subscription to exist already (after a restart)")
	fs.DurationVar(&o.timeout, "timeout", time.Minute, "deadline for the whole check")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if (o.api == "") == (o.exec == "") {
		return o, fmt.Errorf("give exactly one of -api and -exec")
	}
	return o, nil
}

// run performs the check; it returns nil only when the event was delivered.
// log receives progress and the module's own log lines (when started here).
func run(ctx context.Context, args []string, w io.Writer) error {
	log := &syncWriter{w: w} // written by the module's log reader too
	o, err := parse(args, log)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	sub, err := startSubscriber(o.listen)
	if err != nil {
		return err
	}
	defer sub.close()
	if o.exec == "" {
		return check(ctx, o, o.api, sub, log)
	}
	mod, err := launch(ctx, strings.Fields(o.exec), log)
	if err != nil {
		return err
	}
	checkErr := check(ctx, o, mod.httpsURL, sub, log)
	if checkErr == nil {
		checkErr = mod.healthchecks(ctx, log)
	}
	if err := mod.stop(10 * time.Second); err != nil && checkErr == nil {
		checkErr = err
	}
	return checkErr
}

// syncWriter serialises writes to w.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
