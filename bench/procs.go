package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// binary builds the module unless a path was given.
func binary(path string) (string, func(), error) {
	if path != "" {
		return path, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "edgegrid-bench")
	if err != nil {
		return "", nil, err
	}
	out := filepath.Join(dir, "edgegrid")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, "./module")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return "", nil, fmt.Errorf("building the module: %w", err)
	}
	return out, func() { os.RemoveAll(dir) }, nil
}

// proc is a child process listening on HTTP.
type proc struct {
	cmd     *exec.Cmd
	URL     string
	started time.Duration // exec to "listening"
}

// startModule runs the binary with plain HTTP on a free loopback port.
func startModule(bin string, env ...string) (*proc, error) {
	dir, err := os.MkdirTemp("", "edgegrid-bench-md")
	if err != nil {
		return nil, err
	}
	base := []string{"inbound__serverAuth__tlsPolicy=disabled", "inbound__clientAuth__clientCert__enabled=false",
		"inbound__bindAddress=127.0.0.1", "inbound__httpPort=0", "outbound__webhook__httpsOnly=false",
		"broker__metadataDbPath=" + dir, "log__level=info"}
	cmd := exec.Command(bin)
	cmd.Env = append(append([]string{"PATH=" + os.Getenv("PATH")}, base...), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	addr, err := waitListening(out)
	if err != nil {
		_ = cmd.Process.Kill()
		return nil, err
	}
	return &proc{cmd: cmd, URL: "http://" + addr, started: time.Since(start)}, nil
}

// waitListening reads the module's JSON log until the "listening" line.
func waitListening(r io.Reader) (string, error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		var l struct{ Message, Address string }
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Message == "listening" {
			go func() { _, _ = io.Copy(io.Discard, r) }()
			return l.Address, nil
		}
	}
	return "", fmt.Errorf("the module exited before listening")
}

// startBare runs this program's bare server as a child process.
func startBare() (*proc, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "baresrv")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		return nil, err
	}
	return &proc{cmd: cmd, URL: "http://" + strings.TrimSpace(line)}, nil
}

// bareServer is the limit: a net/http server that reads the body and answers 200.
func bareServer(_ []string) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		os.Exit(1)
	}
	fmt.Println(ln.Addr().String())
	_ = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusOK)
	}))
}

func (p *proc) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		_ = p.cmd.Process.Kill()
		<-done
	}
}

// rss reads a process's resident set size in bytes.
func rss(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			f := strings.Fields(line)
			kb, err := strconv.ParseInt(f[1], 10, 64)
			return kb * 1024, err
		}
	}
	return 0, fmt.Errorf("no VmRSS for pid %d", pid)
}
