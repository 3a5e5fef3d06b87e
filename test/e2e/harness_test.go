// Package e2e runs the real edgegrid binary on loopback and drives it through
// its REST API, as users and other modules do.
package e2e

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// binary is the module built once for all tests.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "edgegrid-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "edgegrid")
	build := exec.Command("go", "build", "-o", binary, "github.com/edgegrid/edgegrid/module")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the module:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// module is one running edgegrid process.
type module struct {
	t        *testing.T
	cmd      *exec.Cmd
	HTTPSURL string
	HTTPURL  string
	mu       sync.Mutex
	logs     bytes.Buffer
	lines    []map[string]any
	exited   chan struct{}
	metadata string
	client   *http.Client
}

// startModule runs the binary with env on random loopback ports and waits until
// it has started. Extra env entries override the defaults set here.
func startModule(t *testing.T, env ...string) *module {
	t.Helper()
	m := &module{t: t, exited: make(chan struct{}), metadata: t.TempDir()}
	base := []string{
		"inbound__bindAddress=127.0.0.1", "inbound__httpsPort=0", "inbound__httpPort=0",
		"inbound__serverAuth__tlsPolicy=enabled", "inbound__clientAuth__clientCert__enabled=false",
		"outbound__webhook__httpsOnly=false", "broker__metadataDbPath=" + m.metadata, "log__level=debug",
	}
	return m.launch(mergeEnv(base, env))
}

// mergeEnv drops base entries that env sets again, whatever the spelling.
func mergeEnv(base, env []string) []string {
	canon := func(kv string) string {
		k, _, _ := strings.Cut(kv, "=")
		return strings.ToUpper(strings.ReplaceAll(k, ":", "__"))
	}
	set := map[string]bool{}
	for _, kv := range env {
		set[canon(kv)] = true
	}
	var out []string
	for _, kv := range base {
		if !set[canon(kv)] {
			out = append(out, kv)
		}
	}
	return append(out, env...)
}

func (m *module) launch(env []string) *module {
	t := m.t
	t.Helper()
	m.cmd = exec.Command(binary)
	m.cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, env...)
	out, err := m.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	m.cmd.Stderr = &lockedWriter{m: &m.mu, w: &m.logs}
	if err := m.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	logsRead := make(chan struct{})
	go func() { m.readLogs(out, started); close(logsRead) }()
	// Wait closes the pipe once the process exits, so it must come after the
	// last line is read (os/exec: StdoutPipe), or the final log lines are lost.
	go func() { <-logsRead; _ = m.cmd.Wait(); close(m.exited) }()
	t.Cleanup(func() {
		m.Stop(5 * time.Second)
		if t.Failed() {
			t.Logf("module log:\n%s", m.Logs())
		}
	})
	select {
	case <-started:
	case <-m.exited:
		t.Fatalf("module exited at start:\n%s", m.Logs())
	case <-time.After(10 * time.Second):
		t.Fatalf("module did not start:\n%s", m.Logs())
	}
	m.client = &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, // the module's self-signed certificate
	}}
	return m
}

func (m *module) readLogs(r io.Reader, started chan struct{}) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	once := sync.Once{}
	for sc.Scan() {
		line := sc.Text()
		var fields map[string]any
		_ = json.Unmarshal([]byte(line), &fields)
		m.mu.Lock()
		m.logs.WriteString(line + "\n")
		m.lines = append(m.lines, fields)
		if fields["message"] == "listening" {
			addr, _ := fields["address"].(string)
			if fields["protocol"] == "https" {
				m.HTTPSURL = "https://" + addr
			} else {
				m.HTTPURL = "http://" + addr
			}
		}
		m.mu.Unlock()
		if fields["message"] == "edgegrid started" {
			once.Do(func() { close(started) })
		}
	}
	_, _ = io.Copy(io.Discard, r) // after an over-long line: keep the pipe flowing until EOF
}

// Logs returns everything the module logged.
func (m *module) Logs() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.logs.String()
}

// LogLines returns the parsed log lines whose message is msg.
func (m *module) LogLines(msg string) []map[string]any {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []map[string]any
	for _, l := range m.lines {
		if l["message"] == msg {
			out = append(out, l)
		}
	}
	return out
}

// Stop sends SIGTERM and waits up to timeout, then kills.
func (m *module) Stop(timeout time.Duration) {
	select {
	case <-m.exited:
		return
	default:
	}
	_ = m.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-m.exited:
	case <-time.After(timeout):
		_ = m.cmd.Process.Kill()
		<-m.exited
	}
}

// ExitCode is the process's exit status after Stop.
func (m *module) ExitCode() int { return m.cmd.ProcessState.ExitCode() }

const q = "?api-version=2019-01-01-preview"

// call makes a request to base+path and returns status and body.
func (m *module) call(method, url, body string, headers ...string) (int, string) {
	m.t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), method, url, strings.NewReader(body))
	if err != nil {
		m.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := m.client.Do(req)
	if err != nil {
		m.t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// must makes a request and fails the test unless it answers 200.
func (m *module) must(method, url, body string, headers ...string) string {
	m.t.Helper()
	status, out := m.call(method, url, body, headers...)
	if status != 200 {
		m.t.Fatalf("%s %s: %d %s", method, url, status, out)
	}
	return out
}

type lockedWriter struct {
	m *sync.Mutex
	w io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.m.Lock()
	defer l.m.Unlock()
	return l.w.Write(p)
}

// command prepares the binary with only the given environment (and PATH).
func command(args []string, env ...string) *exec.Cmd {
	c := exec.Command(binary, args...)
	c.Env = append([]string{"PATH=" + os.Getenv("PATH")}, env...)
	return c
}
