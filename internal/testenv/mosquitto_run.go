package testenv

import (
	"net"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// Start runs the broker and waits until it accepts connections.
func (m *Mosquitto) Start() {
	m.tb.Helper()
	cmd := exec.Command(m.bin, "-c", m.conf)
	cmd.Stdout, cmd.Stderr = m, m
	if err := cmd.Start(); err != nil {
		m.tb.Fatalf("starting mosquitto: %v", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	m.mu.Lock()
	m.cmd, m.exited = cmd, exited
	m.mu.Unlock()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", m.Addr(), time.Second)
		if err == nil {
			_ = c.Close()
			return
		}
		select {
		case <-exited:
			m.tb.Fatalf("mosquitto exited at start:\n%s", m.Output())
		default:
		}
		if time.Now().After(deadline) {
			m.tb.Fatalf("mosquitto did not listen on %s:\n%s", m.Addr(), m.Output())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Stop sends SIGTERM (mosquitto saves its persistence file) and waits for
// the process to end; idempotent.
func (m *Mosquitto) Stop() {
	m.mu.Lock()
	cmd, exited := m.cmd, m.exited
	m.cmd = nil
	m.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
	}
}

// Restart stops the broker and starts it again with the same port and
// persistence directory.
func (m *Mosquitto) Restart() {
	m.tb.Helper()
	m.Stop()
	m.Start()
}

// Pub returns mosquitto_pub aimed at the broker, with extra arguments.
func (m *Mosquitto) Pub(args ...string) *exec.Cmd {
	return exec.Command("mosquitto_pub", append([]string{"-h", "127.0.0.1", "-p", strconv.Itoa(m.Port)}, args...)...)
}

// Sub returns mosquitto_sub aimed at the broker, with extra arguments.
func (m *Mosquitto) Sub(args ...string) *exec.Cmd {
	return exec.Command("mosquitto_sub", append([]string{"-h", "127.0.0.1", "-p", strconv.Itoa(m.Port)}, args...)...)
}

// Write collects the broker's output (it implements io.Writer for the
// process's stdout and stderr).
func (m *Mosquitto) Write(p []byte) (int, error) {
	m.outputL.Lock()
	defer m.outputL.Unlock()
	return m.output.Write(p)
}

// Output is what the broker printed.
func (m *Mosquitto) Output() string {
	m.outputL.Lock()
	defer m.outputL.Unlock()
	return m.output.String()
}
