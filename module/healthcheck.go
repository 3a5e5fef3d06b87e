package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/edgegrid/edgegrid/hostconfig"
)

// healthcheckTimeout bounds the whole probe; it stays below the image's
// HEALTHCHECK --timeout (5 s) so the probe reports its own error instead of
// being killed.
const healthcheckTimeout = 3 * time.Second

// healthcheck asks the running module's /api/health and returns 0 on 200, else
// 1 with the reason. It exists because a FROM-scratch image has no shell or
// curl for HEALTHCHECK. It reads the same environment as the module (the
// container's), so it finds the listeners the module opened.
func healthcheck(ctx context.Context, environ []string, out io.Writer) (int, error) {
	cfg, err := hostconfig.Load(environ)
	if err != nil {
		return 1, fmt.Errorf("healthcheck: %w", err)
	}
	url, err := healthURL(cfg.Inbound)
	if err != nil {
		return 1, err
	}
	ctx, cancel := context.WithTimeout(ctx, healthcheckTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 1, fmt.Errorf("healthcheck: %w", err)
	}
	resp, err := probeClient().Do(req)
	if err != nil {
		return 1, fmt.Errorf("healthcheck: %w", err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusOK {
		return 1, fmt.Errorf("healthcheck: %s answered %d", url, resp.StatusCode)
	}
	fmt.Fprintln(out, "healthy:", url)
	return 0, nil
}

// healthURL picks the listener to probe. Plain HTTP is preferred when the TLS
// policy serves it (enabled, disabled): no handshake, and nothing a client
// certificate requirement could refuse. Under strict it is HTTPS.
func healthURL(in hostconfig.Inbound) (string, error) {
	scheme, port, name := "http", in.HTTPPort, "inbound__httpPort"
	if !in.ServeHTTP() {
		scheme, port, name = "https", in.HTTPSPort, "inbound__httpsPort"
	}
	if port == 0 {
		return "", errors.New("healthcheck: " + name + " is 0 (any free port), so the port to probe is unknown; set a fixed port")
	}
	return scheme + "://" + net.JoinHostPort(probeHost(in.BindAddress), strconv.Itoa(port)) + "/api/health", nil
}

// probeHost is the address to reach a listener bound to bind: IPv4 loopback
// for all-interfaces binds ("", 0.0.0.0, and "::", which Go opens dual-stack),
// else bind itself.
func probeHost(bind string) string {
	if ip := net.ParseIP(bind); ip == nil || ip.IsUnspecified() {
		return "127.0.0.1"
	}
	return bind
}

// probeClient is a one-shot client that never follows redirects or reuses
// connections, and does not authenticate the server: the probe only asks
// whether this container's own process answers.
func probeClient() *http.Client {
	return &http.Client{
		Transport: &http.Transport{
			TLSClientConfig:   &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // probing our own listener
			DisableKeepAlives: true,
			Proxy:             nil, // HTTP(S)_PROXY in the container must not capture a loopback probe
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
