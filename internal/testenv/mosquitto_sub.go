package testenv

import (
	"bufio"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// MosquittoSub is a running mosquitto_sub -v, a real MQTT subscriber: each
// message it prints is "topic payload".
type MosquittoSub struct {
	lines chan string
	cmd   *exec.Cmd
	once  sync.Once
}

// Subscribe starts mosquitto_sub on topic (QoS 1, a persistent session with
// client id "test-sub", so it also gets what was published while mosquitto
// restarted) and returns once it receives. mosquitto_sub buffers its debug
// output, so the SUBACK cannot be watched; instead it also subscribes to a
// probe topic, which Subscribe publishes to until a probe comes back.
func (m *Mosquitto) Subscribe(tb testing.TB, topic string) *MosquittoSub {
	tb.Helper()
	cmd := m.Sub("-v", "-q", "1", "-c", "-i", "test-sub", "-t", topic, "-t", "probe")
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	s := &MosquittoSub{lines: make(chan string, 1000), cmd: cmd}
	tb.Cleanup(s.Close)
	probed := make(chan struct{})
	go s.read(out, probed)
	Eventually(tb, 10*time.Second, "mosquitto_sub receiving", func() bool {
		if err := m.Pub("-t", "probe", "-m", "p").Run(); err != nil {
			tb.Fatalf("mosquitto_pub probe: %v", err)
		}
		select {
		case <-probed:
			return true
		case <-time.After(100 * time.Millisecond):
			return false
		}
	})
	return s
}

// Close ends mosquitto_sub (its session stays with the broker); idempotent.
// Two subscribers with one client id would take the session from each other.
func (s *MosquittoSub) Close() {
	s.once.Do(func() { _ = s.cmd.Process.Kill(); _ = s.cmd.Wait() })
}

// read forwards message lines, except probes, which it signals.
func (s *MosquittoSub) read(r io.Reader, probed chan struct{}) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "probe ") {
			select {
			case <-probed:
			default:
				close(probed)
			}
			continue
		}
		s.lines <- line
	}
	close(s.lines)
}

// Next returns the next message line, failing the test after 10 seconds.
func (s *MosquittoSub) Next(tb testing.TB) string {
	tb.Helper()
	select {
	case l, ok := <-s.lines:
		if !ok {
			tb.Fatal("mosquitto_sub exited")
		}
		return l
	case <-time.After(10 * time.Second):
		tb.Fatal("mosquitto_sub printed nothing")
		return ""
	}
}
