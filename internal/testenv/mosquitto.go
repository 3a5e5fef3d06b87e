package testenv

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

// Mosquitto is Debian's mosquitto broker run by a test: loopback only, a
// free port, anonymous clients allowed, persistence in a temporary
// directory, so that a session and its queued messages survive Restart.
type Mosquitto struct {
	tb      testing.TB
	bin     string
	dir     string
	conf    string
	Port    int
	mu      sync.Mutex
	cmd     *exec.Cmd
	exited  chan struct{}
	output  bytes.Buffer
	outputL sync.Mutex
}

// mosquittoBinaries finds mosquitto (often in /usr/sbin, outside a user's
// PATH), mosquitto_pub and mosquitto_sub.
func mosquittoBinaries() (broker string, ok bool) {
	broker, err := exec.LookPath("mosquitto")
	if err != nil {
		broker = "/usr/sbin/mosquitto"
		if _, err := os.Stat(broker); err != nil {
			return "", false
		}
	}
	for _, c := range []string{"mosquitto_pub", "mosquitto_sub"} {
		if _, err := exec.LookPath(c); err != nil {
			return "", false
		}
	}
	return broker, true
}

// RequireMosquitto skips the test when mosquitto, mosquitto_pub or
// mosquitto_sub is missing; under CI (CI=true) it fails instead, because
// .ci/run installs them.
func RequireMosquitto(tb testing.TB) string {
	tb.Helper()
	bin, ok := mosquittoBinaries()
	if ok {
		return bin
	}
	msg := "mosquitto, mosquitto_pub or mosquitto_sub not found; install Debian's mosquitto and mosquitto-clients (.ci/run does)"
	if os.Getenv("CI") == "true" {
		tb.Fatal(msg)
	}
	tb.Skip(msg)
	return ""
}

// StartMosquitto starts a broker for the test (see Mosquitto) and stops it
// at cleanup.
func StartMosquitto(tb testing.TB) *Mosquitto {
	tb.Helper()
	m := &Mosquitto{tb: tb, bin: RequireMosquitto(tb), dir: tb.TempDir(), Port: freePort(tb)}
	m.conf = filepath.Join(m.dir, "mosquitto.conf")
	if err := os.WriteFile(m.conf, []byte(m.config()), 0o600); err != nil {
		tb.Fatal(err)
	}
	m.Start()
	tb.Cleanup(func() {
		m.Stop()
		if tb.Failed() {
			tb.Logf("mosquitto output:\n%s", m.Output())
		}
	})
	return m
}

// config is the broker's configuration. max_queued_messages is raised so a
// slow consumer's persistent session does not drop QoS 1 messages (the
// default is 1000); user keeps a root-run broker from switching to the
// mosquitto user, which could not write the test's directory.
func (m *Mosquitto) config() string {
	name := "root"
	if u, err := user.Current(); err == nil {
		name = u.Username
	}
	return fmt.Sprintf(`listener %d 127.0.0.1
allow_anonymous true
persistence true
persistence_location %s/
max_queued_messages 1000000
user %s
log_dest stderr
log_type error
log_type warning
log_type notice
`, m.Port, m.dir, name)
}

// freePort returns a loopback port that was free a moment ago.
func freePort(tb testing.TB) int {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// Addr is host:port.
func (m *Mosquitto) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(m.Port)) }

// URL is tcp://host:port.
func (m *Mosquitto) URL() string { return "tcp://" + m.Addr() }
