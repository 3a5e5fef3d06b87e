package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/internal/testenv"
)

// mqttModule starts mosquitto, the module ingesting sensors/# into the
// topic telemetry, and a webhook subscriber of that topic.
func mqttModule(t *testing.T, env ...string) (*module, *testenv.Mosquitto, *testenv.Webhook) {
	t.Helper()
	mos := testenv.StartMosquitto(t)
	env = append([]string{"mqtt__url=" + mos.URL(), "mqtt__routes=sensors/#=telemetry", "mqtt__clientId=e2e-ingest",
		"log__level=info"}, env...)
	m := startModule(t, env...)
	hook := testenv.NewWebhook(t)
	m.must("PUT", m.HTTPURL+"/topics/telemetry"+q, `{"properties":{"inputSchema":"EventGridSchema"}}`)
	m.must("PUT", m.HTTPURL+"/topics/telemetry/eventSubscriptions/hook"+q,
		`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"`+hook.URL+`"}}}}`)
	testenv.Eventually(t, 15*time.Second, "module subscribed to mosquitto", func() bool {
		return len(m.LogLines("subscribed to the MQTT topic filters")) > 0
	})
	return m, mos, hook
}

// mqttEvent is line i of a stream: one Event Grid event with id e<i>.
func mqttEvent(i int) string {
	return fmt.Sprintf(`{"id":"e%d","subject":"sensors/s1","eventType":"Reading","eventTime":"2026-01-01T00:00:00Z","dataVersion":"1.0","data":{"n":%d}}`, i, i)
}

// received returns how many times each event id reached the webhook.
func received(t *testing.T, hook *testenv.Webhook) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, r := range hook.Requests() {
		var ids []struct{ ID string }
		if err := json.Unmarshal(r.Body, &ids); err != nil {
			t.Fatalf("webhook body %s: %v", r.Body, err)
		}
		for _, e := range ids {
			out[e.ID]++
		}
	}
	return out
}

func duplicates(got map[string]int) int {
	n := 0
	for _, c := range got {
		n += c - 1
	}
	return n
}

// TestMQTTThousandMessages: mosquitto_pub publishes 1,000 QoS 1 messages;
// the webhook receives every event.
func TestMQTTThousandMessages(t *testing.T) {
	t.Parallel()
	m, mos, hook := mqttModule(t, "metrics__reporterType=prometheus")
	const n = 1000
	var in strings.Builder
	for i := 1; i <= n; i++ {
		in.WriteString(mqttEvent(i) + "\n")
	}
	pub := mos.Pub("-l", "-q", "1", "-t", "sensors/s1")
	pub.Stdin = strings.NewReader(in.String())
	if out, err := pub.CombinedOutput(); err != nil {
		t.Fatalf("mosquitto_pub: %v\n%s", err, out)
	}
	testenv.Eventually(t, 60*time.Second, "1000 distinct events", func() bool { return len(received(t, hook)) == n })
	got := received(t, hook)
	for i := 1; i <= n; i++ {
		if got["e"+strconv.Itoa(i)] == 0 {
			t.Errorf("event e%d missing", i)
		}
	}
	report(t, "received %d distinct events, %d duplicates", len(got), duplicates(got))
	metricsText := m.must("GET", m.HTTPURL+"/metrics", "")
	for _, want := range []string{"edgegrid_mqtt_connected 1", "edgegrid_mqtt_messages_received_total ", "edgegrid_mqtt_messages_published_total "} {
		if !strings.Contains(metricsText, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

// pubackRE matches mosquitto_pub -d's acknowledgement lines.
var pubackRE = regexp.MustCompile(`received PUBACK \(Mid: (\d+), RC:0\)`)

// TestMQTTBrokerRestartMidStream: while mosquitto_pub streams QoS 1
// messages, mosquitto is stopped (SIGTERM) and started again with the same
// persistence directory. Every message mosquitto acknowledged to the
// publisher must reach the webhook; duplicates are counted and reported.
func TestMQTTBrokerRestartMidStream(t *testing.T) {
	t.Parallel()
	_, mos, hook := mqttModule(t)
	const n = 1000
	// -c and a fixed id: the publisher's own session survives the restart
	// too; -d prints the PUBACKs. libmosquitto numbers messages 1, 2, … in
	// the order given, so message id i is line i (event e<i>).
	pub := mos.Pub("-l", "-q", "1", "-d", "-c", "-i", "e2e-pub", "-t", "sensors/s1")
	stdin, err := pub.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := pub.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := pub.Start(); err != nil {
		t.Fatal(err)
	}
	acked := make(chan map[int]bool, 1)
	go func() { acked <- pubacks(stdout) }()
	var written atomic.Int64
	go func() {
		defer stdin.Close()
		for i := 1; i <= n; i++ {
			if _, err := io.WriteString(stdin, mqttEvent(i)+"\n"); err != nil {
				return
			}
			written.Add(1)
			time.Sleep(time.Millisecond) // a steady stream, so the restart lands in the middle
		}
	}()
	testenv.Eventually(t, 30*time.Second, "a third of the stream written", func() bool { return written.Load() >= n/3 })
	mos.Restart()
	restartedAt := written.Load()
	if err := pub.Wait(); err != nil {
		t.Fatalf("mosquitto_pub: %v", err)
	}
	ack := <-acked
	testenv.Eventually(t, 60*time.Second, "every acknowledged event", func() bool {
		got := received(t, hook)
		for id := range ack {
			if got["e"+strconv.Itoa(id)] == 0 {
				return false
			}
		}
		return true
	})
	got := received(t, hook)
	report(t, "restart after %d of %d messages; %d acknowledged by mosquitto; %d distinct events received, %d duplicates",
		restartedAt, n, len(ack), len(got), duplicates(got))
	if len(ack) < n/2 {
		t.Errorf("only %d of %d messages were acknowledged; the test proves little", len(ack), n)
	}
}

// pubacks reads mosquitto_pub -d's output and returns the acknowledged
// message ids.
func pubacks(r io.Reader) map[int]bool {
	out := map[int]bool{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if m := pubackRE.FindStringSubmatch(sc.Text()); m != nil {
			id, _ := strconv.Atoi(m[1])
			out[id] = true
		}
	}
	return out
}

// TestBadMQTTConfigStops: invalid MQTT settings stop the program at start
// with a message naming the variable; an unreachable broker does not.
func TestBadMQTTConfigStops(t *testing.T) {
	t.Parallel()
	for _, env := range [][]string{
		{"mqtt__url=tcp://localhost:1883", "mqtt__routes=sensors/#/x=telemetry"},
		{"mqtt__url=http://localhost"},
		{"mqtt__url=tcp://localhost", "mqtt__routes=a=tele.metry"},
	} {
		cmd := command(nil, env...)
		out, err := cmd.CombinedOutput()
		name, _, _ := strings.Cut(env[len(env)-1], "=")
		if err == nil || cmd.ProcessState.ExitCode() != 1 || !strings.Contains(string(out), "invalid config: "+name) {
			t.Errorf("%q: exit %v, output %s", env, err, out)
		}
	}
	// Nothing listens on this port: the module starts anyway and answers HTTP.
	m := startModule(t, "mqtt__url=tcp://127.0.0.1:1", "mqtt__routes=a/#=t")
	if status, _ := m.call("GET", m.HTTPURL+"/api/health", ""); status != 200 {
		t.Errorf("health %d with the MQTT broker unreachable", status)
	}
}
