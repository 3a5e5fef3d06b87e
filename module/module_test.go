package main

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/hostconfig"
)

// startModule builds and starts the module in-process from env and stops it
// when the test ends.
func startModule(t *testing.T, sm seams, env ...string) *module {
	t.Helper()
	cfg, err := hostconfig.Load(append([]string{"inbound__bindAddress=127.0.0.1", "broker__metadataDbPath=none"}, env...))
	if err != nil {
		t.Fatal(err)
	}
	m, err := build(context.Background(), cfg, zerolog.Nop(), sm)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.listen(); err != nil {
		t.Fatal(err)
	}
	m.api.SetReady(true)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		m.closeListeners(ctx)
		m.stop(ctx)
	})
	return m
}

// freePorts returns n ports that were free a moment ago.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	return ports
}

// probe says how a port answers: "https", "http", or "refused".
func probe(t *testing.T, port int) string {
	t.Helper()
	addr := "127.0.0.1:" + strconv.Itoa(port)
	c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // the port's protocol is under test
	for _, scheme := range []string{"https", "http"} {
		resp, err := c.Get(scheme + "://" + addr + "/api/health")
		if err != nil {
			if strings.Contains(err.Error(), "connection refused") {
				return "refused"
			}
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 200 {
			return scheme
		}
		if !strings.Contains(string(body), "HTTP request to an HTTPS server") {
			t.Fatalf("%s://%s answered %d %s", scheme, addr, resp.StatusCode, body)
		}
	}
	return "neither"
}
