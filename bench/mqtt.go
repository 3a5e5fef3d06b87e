package main

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// measureMQTT: MQTT ingest messages/s through the binary (mosquitto_pub →
// mosquitto → edgegrid → webhook) next to mosquitto's own pub→sub rate
// (mosquitto_pub → mosquitto → mosquitto_sub), QoS 1, same messages. Skipped,
// and said so, when Debian's mosquitto tools are not installed.
func measureMQTT(r *report, o options, bin string) error {
	n := 20_000
	if o.quick {
		n = 500
	}
	mos, err := startMosquitto()
	if err != nil {
		r.note("MQTT ingest not measured: " + err.Error())
		return nil
	}
	defer mos.stop()
	var lines strings.Builder
	for i := 0; i < n; i++ {
		lines.WriteString("[" + event(fmt.Sprint("q", i), 0, 64) + "]\n")
	}
	limit, err := mos.pubSub(lines.String(), n)
	if err != nil {
		return err
	}
	sub, err := newSubscriber()
	if err != nil {
		return err
	}
	defer sub.close()
	m, err := startModule(bin, "mqtt__url="+mos.url, "mqtt__routes=bench/#=t", "mqtt__clientId=bench-ingest")
	if err != nil {
		return err
	}
	defer m.stop()
	if err := setup(m.URL, `,"maxEventsPerBatch":50`, sub.URL); err != nil {
		return err
	}
	start := time.Now()
	if err := mos.publish(lines.String()); err != nil {
		return err
	}
	if !sub.waitEvents(int64(n), 5*time.Minute) {
		return fmt.Errorf("MQTT ingest: %d of %d events arrived", sub.events.Load(), n)
	}
	rate := float64(n) / time.Since(start).Seconds()
	r.add("MQTT ingest to a webhook, QoS 1 (messages/s)", rate, limit, "mosquitto pub→sub", "≥ 80 % of mosquitto", rate >= 0.8*limit)
	return nil
}

// mosquitto is a Debian mosquitto broker on a free loopback port.
type mosquitto struct {
	cmd *exec.Cmd
	dir string
	url string
}

func startMosquitto() (*mosquitto, error) {
	path, err := exec.LookPath("mosquitto")
	if err != nil {
		if _, statErr := os.Stat("/usr/sbin/mosquitto"); statErr != nil {
			return nil, fmt.Errorf("mosquitto is not installed (apt-get install mosquitto mosquitto-clients)")
		}
		path = "/usr/sbin/mosquitto"
	}
	for _, tool := range []string{"mosquitto_pub", "mosquitto_sub"} {
		if _, err := exec.LookPath(tool); err != nil {
			return nil, fmt.Errorf("%s is not installed", tool)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	dir, err := os.MkdirTemp("", "bench-mosquitto")
	if err != nil {
		return nil, err
	}
	conf := fmt.Sprintf("listener %d 127.0.0.1\nallow_anonymous true\npersistence true\npersistence_location %s/\nmax_queued_messages 100000\n", port, dir)
	if err := os.WriteFile(filepath.Join(dir, "m.conf"), []byte(conf), 0o600); err != nil {
		return nil, err
	}
	m := &mosquitto{cmd: exec.Command(path, "-c", filepath.Join(dir, "m.conf")), dir: dir, url: fmt.Sprintf("tcp://127.0.0.1:%d", port)}
	if err := m.cmd.Start(); err != nil {
		return nil, err
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			return m, nil
		}
	}
	m.stop()
	return nil, fmt.Errorf("mosquitto did not start")
}

func (m *mosquitto) port() string {
	return strings.TrimPrefix(m.url[strings.LastIndex(m.url, ":"):], ":")
}

func (m *mosquitto) publish(lines string) error {
	pub := exec.Command("mosquitto_pub", "-h", "127.0.0.1", "-p", m.port(), "-q", "1", "-t", "bench/x", "-l")
	pub.Stdin = strings.NewReader(lines)
	return pub.Run()
}

// pubSub is mosquitto's own rate: n QoS 1 messages from mosquitto_pub to mosquitto_sub.
func (m *mosquitto) pubSub(lines string, n int) (float64, error) {
	sub := exec.Command("mosquitto_sub", "-h", "127.0.0.1", "-p", m.port(), "-q", "1", "-t", "bench/y", "-C", fmt.Sprint(n))
	out, err := sub.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := sub.Start(); err != nil {
		return 0, err
	}
	time.Sleep(300 * time.Millisecond) // let the subscription settle
	start := time.Now()
	pub := exec.Command("mosquitto_pub", "-h", "127.0.0.1", "-p", m.port(), "-q", "1", "-t", "bench/y", "-l")
	pub.Stdin = strings.NewReader(lines)
	if err := pub.Start(); err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	got := 0
	for got < n && sc.Scan() {
		got++
	}
	d := time.Since(start)
	_ = pub.Wait()
	_ = sub.Wait()
	if got < n {
		return 0, fmt.Errorf("mosquitto_sub received %d of %d", got, n)
	}
	return float64(n) / d.Seconds(), nil
}

func (m *mosquitto) stop() {
	_ = m.cmd.Process.Kill()
	_ = m.cmd.Wait()
	_ = os.RemoveAll(m.dir)
}
