package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// launched is a module process this program started.
type launched struct {
	argv     []string
	log      io.Writer
	cmd      *exec.Cmd
	exited   chan struct{} // closed after Wait returned
	httpsURL string        // set from the "listening" log lines before start returns
	httpURL  string
	lost     *int // lostEvents of the "edgegrid stopped" line, once logged
}

// moduleEnv is a standalone module on random loopback ports: both listeners,
// no client certificates, http:// webhooks allowed, metadata in memory.
func moduleEnv(overrides ...string) []string {
	env := []string{"PATH=" + os.Getenv("PATH"), "inbound__bindAddress=127.0.0.1",
		"inbound__clientAuth__clientCert__enabled=false", "outbound__webhook__httpsOnly=false",
		"broker__metadataDbPath=none"}
	if len(overrides) == 0 {
		overrides = []string{"inbound__serverAuth__tlsPolicy=enabled", "inbound__httpsPort=0", "inbound__httpPort=0"}
	}
	return append(env, overrides...)
}

// launch starts argv and waits until the module logged "edgegrid started".
// The module's log lines are copied to log.
func launch(ctx context.Context, argv []string, log io.Writer) (*launched, error) {
	m := &launched{argv: argv, log: log, exited: make(chan struct{})}
	m.cmd = exec.Command(argv[0], argv[1:]...)
	m.cmd.Env = moduleEnv()
	m.cmd.Stderr = log
	out, err := m.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := m.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %v: %w", argv, err)
	}
	started := make(chan struct{})
	go m.readLogs(out, started)
	select {
	case <-started:
		return m, nil
	case <-m.exited:
		return nil, fmt.Errorf("%v exited at start: %v", argv, m.cmd.ProcessState)
	case <-ctx.Done():
		_ = m.stop(time.Second)
		return nil, fmt.Errorf("%v did not start: %w", argv, ctx.Err())
	}
}

// readLogs copies the module's log, notes the listener URLs and closes
// started at "edgegrid started"; at EOF it reaps the process.
func (m *launched) readLogs(r io.Reader, started chan struct{}) {
	defer close(m.exited)
	var once sync.Once
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		fmt.Fprintln(m.log, "module:", sc.Text())
		var line struct {
			Message, Protocol, Address string
			LostEvents                 *int
		}
		_ = json.Unmarshal(sc.Bytes(), &line)
		switch {
		case line.Message == "listening" && line.Protocol == "https":
			m.httpsURL = "https://" + line.Address
		case line.Message == "listening":
			m.httpURL = "http://" + line.Address
		case line.Message == "edgegrid started":
			once.Do(func() { close(started) })
		case line.Message == "edgegrid stopped":
			m.lost = line.LostEvents
		}
	}
	_, _ = io.Copy(io.Discard, r)
	_ = m.cmd.Wait()
}

// healthchecks runs the binary's healthcheck command the way a container
// HEALTHCHECK does, once per listener: over HTTP (policy enabled) and over
// HTTPS (policy strict).
func (m *launched) healthchecks(ctx context.Context, log io.Writer) error {
	https, _ := url.Parse(m.httpsURL)
	plain, _ := url.Parse(m.httpURL)
	for _, env := range [][]string{
		{"inbound__serverAuth__tlsPolicy=enabled", "inbound__httpsPort=" + https.Port(), "inbound__httpPort=" + plain.Port()},
		{"inbound__serverAuth__tlsPolicy=strict", "inbound__httpsPort=" + https.Port()},
	} {
		cmd := exec.CommandContext(ctx, m.argv[0], append(m.argv[1:], "healthcheck")...)
		cmd.Env = moduleEnv(env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("healthcheck with %v: %w: %s", env, err, out)
		}
		fmt.Fprintf(log, "smoke: %s healthcheck: %s", m.argv[len(m.argv)-1], out)
	}
	return nil
}

// stop sends SIGTERM and requires a clean drain within timeout: status 0 and
// "edgegrid stopped" with lostEvents 0. After timeout the process is killed.
func (m *launched) stop(timeout time.Duration) error {
	_ = m.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-m.exited:
	case <-time.After(timeout):
		_ = m.cmd.Process.Kill()
		<-m.exited
		return fmt.Errorf("%v did not stop within %v of SIGTERM", m.argv, timeout)
	}
	if code := m.cmd.ProcessState.ExitCode(); code != 0 {
		return errors.New("module exited with status " + m.cmd.ProcessState.String())
	}
	if m.lost == nil || *m.lost != 0 {
		return fmt.Errorf("module did not report a clean drain (lostEvents %v)", m.lost)
	}
	return nil
}
