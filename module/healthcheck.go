package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/edgegrid/edgegrid/hostconfig"
)

// healthcheck asks the local API's /api/health and exits 0 on 200, else 1. It
// exists because a FROM-scratch image has no shell or curl for HEALTHCHECK.
func healthcheck(ctx context.Context, environ []string, out io.Writer) (int, error) {
	cfg, err := hostconfig.Load(environ)
	if err != nil {
		return 1, err
	}
	host := cfg.Inbound.BindAddress
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	url := "http://" + net.JoinHostPort(host, strconv.Itoa(cfg.Inbound.HTTPPort)) + "/api/health"
	if cfg.Inbound.ServeHTTPS() {
		url = "https://" + net.JoinHostPort(host, strconv.Itoa(cfg.Inbound.HTTPSPort)) + "/api/health"
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	client := &http.Client{Transport: &http.Transport{
		// The probe only asks whether our own process answers; it does not
		// authenticate the server.
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, //nolint:gosec
	}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 1, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return 1, fmt.Errorf("healthcheck: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 1, fmt.Errorf("healthcheck: %s answered %d", url, resp.StatusCode)
	}
	fmt.Fprintln(out, "healthy")
	return 0, nil
}
