package e2e

import (
	"net"
	"net/url"
	"strings"
	"testing"
)

// TestHealthcheckCommand: `edgegrid healthcheck`, given the module's
// environment as a container HEALTHCHECK is, exits 0 while the module serves
// (over HTTP when the TLS policy serves it, over HTTPS under strict) and 1 with
// the reason when nothing answers or the port to probe is unknown.
func TestHealthcheckCommand(t *testing.T) {
	t.Parallel()
	enabled := startModule(t)
	strict := startModule(t, "inbound__serverAuth__tlsPolicy=strict")
	cases := map[string]struct {
		env  []string
		code int
		out  string
	}{
		"enabled probes http": {
			env:  []string{"inbound__serverAuth__tlsPolicy=enabled", "inbound__httpsPort=" + portOf(t, enabled.HTTPSURL), "inbound__httpPort=" + portOf(t, enabled.HTTPURL)},
			code: 0, out: "healthy: " + enabled.HTTPURL + "/api/health",
		},
		"strict probes https": {
			env:  []string{"inbound:serverAuth:tlsPolicy=strict", "inbound__httpsPort=" + portOf(t, strict.HTTPSURL)},
			code: 0, out: "healthy: " + strict.HTTPSURL + "/api/health",
		},
		"nothing listening": {
			env:  []string{"inbound__serverAuth__tlsPolicy=disabled", "inbound__httpPort=" + closedPort(t)},
			code: 1, out: "connection refused",
		},
		"port unknown": {
			env:  []string{"inbound__serverAuth__tlsPolicy=strict", "inbound__httpsPort=0"},
			code: 1, out: "inbound__httpsPort is 0",
		},
		"invalid configuration": {
			env:  []string{"inbound__serverAuth__tlsPolicy=sometimes"},
			code: 1, out: "inbound__serverAuth__tlsPolicy",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cmd := command([]string{"healthcheck"}, append([]string{"inbound__bindAddress=127.0.0.1"}, tc.env...)...)
			out, _ := cmd.CombinedOutput()
			if code := cmd.ProcessState.ExitCode(); code != tc.code || !strings.Contains(string(out), tc.out) {
				t.Fatalf("exit %d, output %q; want exit %d and %q", code, out, tc.code, tc.out)
			}
		})
	}
}

// portOf returns the port of a base URL such as http://127.0.0.1:41234.
func portOf(t *testing.T, base string) string {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil || u.Port() == "" {
		t.Fatalf("no port in %q (%v)", base, err)
	}
	return u.Port()
}

// closedPort returns a loopback port nothing listens on (it was just freed).
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	_ = ln.Close()
	return port
}
