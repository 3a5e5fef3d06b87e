package mqtt_test

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/destination/mqtt"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

// TestMosquittoSubscriberReceives: mosquitto_sub, a real client, receives
// what the Mqtt destination publishes through Debian's mosquitto; while
// mosquitto is down the destination answers Retry, and after its restart
// it delivers again.
func TestMosquittoSubscriberReceives(t *testing.T) {
	mos := testenv.StartMosquitto(t)
	sub := subscribe(t, mos, "events/out")
	f, err := mqtt.NewFactory(mqtt.Options{URL: mos.URL(), ClientID: "edgegrid-pub", ReconnectMax: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	s, err := f.New(&destination.Endpoint{Type: destination.Mqtt, MqttTopic: "events/out"})
	if err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 10*time.Second, "connected", f.Connected)
	if res := s.Send(context.Background(), delivery("a", "b")); res.Outcome != destination.Delivered {
		t.Fatalf("Send = %+v", res)
	}
	if line := sub.next(t); line != `events/out [{"id":"a"},{"id":"b"}]` {
		t.Errorf("mosquitto_sub printed %q", line)
	}

	mos.Stop()
	testenv.Eventually(t, 10*time.Second, "disconnected", func() bool { return !f.Connected() })
	if res := s.Send(context.Background(), delivery("c")); res.Outcome != destination.Retry {
		t.Errorf("Send while mosquitto is down = %+v", res)
	}
	mos.Start()
	testenv.Eventually(t, 15*time.Second, "reconnected", f.Connected)
	if res := s.Send(context.Background(), delivery("d")); res.Outcome != destination.Delivered {
		t.Fatalf("Send after the restart = %+v", res)
	}
	if line := sub.next(t); line != `events/out [{"id":"d"}]` {
		t.Errorf("mosquitto_sub printed %q after the restart", line)
	}
}

// subscriber is a running mosquitto_sub -v with a persistent session (so it
// gets what was published while mosquitto restarted), printing one line
// per message.
type subscriber struct{ lines chan string }

// subscribe starts mosquitto_sub and waits until it receives: it also
// subscribes to a probe topic, which the test publishes to until a probe
// comes back (mosquitto_sub's own output is buffered, so its SUBACK cannot
// be watched).
func subscribe(t *testing.T, mos *testenv.Mosquitto, topic string) *subscriber {
	t.Helper()
	cmd := mos.Sub("-v", "-q", "1", "-c", "-i", "test-sub", "-t", topic, "-t", "probe")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	s := &subscriber{lines: make(chan string, 100)}
	probed := make(chan struct{})
	go s.read(out, probed)
	testenv.Eventually(t, 10*time.Second, "mosquitto_sub receiving", func() bool {
		if err := mos.Pub("-t", "probe", "-m", "p").Run(); err != nil {
			t.Fatal(err)
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

// read forwards message lines, except probes, which it signals.
func (s *subscriber) read(r io.Reader, probed chan struct{}) {
	sc := bufio.NewScanner(r)
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

func (s *subscriber) next(t *testing.T) string {
	t.Helper()
	select {
	case l := <-s.lines:
		return l
	case <-time.After(10 * time.Second):
		t.Fatal("mosquitto_sub printed nothing")
		return ""
	}
}
