package main

import (
	"context"
	"crypto/tls"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/hostconfig"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

const q = "?api-version=2019-01-01-preview"

// TestEdgeStartFailsWithoutWorkloadAPI: in IoT Edge mode the module will not
// start without its certificates, and says why.
func TestEdgeStartFailsWithoutWorkloadAPI(t *testing.T) {
	wl := testenv.NewWorkload(t)
	env := append(wl.Env(), "IOTEDGE_WORKLOADURI=unix:///nonexistent/workload.sock", "broker__metadataDbPath=none")
	cfg, err := hostconfig.Load(env)
	if err != nil {
		t.Fatal(err)
	}
	_, err = build(context.Background(), cfg, zerolog.Nop(), seams{workloadBackoff: time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "IoT Edge mode: could not get the trust bundle from the workload API at unix:///nonexistent/workload.sock") {
		t.Fatalf("build: %v", err)
	}
	wl.FailNext(-1, 403) // the bundle comes, the server certificate is refused
	cfg, _ = hostconfig.Load(append(wl.Env(), "broker__metadataDbPath=none"))
	if _, err = build(context.Background(), cfg, zerolog.Nop(), seams{}); err == nil ||
		!strings.Contains(err.Error(), "could not get the server certificate from the workload API") {
		t.Fatalf("build with the server certificate refused: %v", err)
	}
}

// TestEdgeMutualTLS: in IoT Edge mode the HTTPS listener serves the issued
// certificate, callers with an IoT Edge-issued certificate get in, and
// deliveries present the module's identity certificate to a subscriber
// that requires one, whose own certificate is checked against the trust
// bundle.
func TestEdgeMutualTLS(t *testing.T) {
	wl := testenv.NewWorkload(t)
	m := startModule(t, seams{}, append(wl.Env(), "inbound__httpsPort=0", "inbound__clientAuth__clientCert__allowUnknownCA=false",
		"outbound__webhook__allowUnknownCA=false")...)
	caller, _, _ := wl.CA.Issue(t, testenv.LeafOptions{CommonName: "publisher", Client: true})
	cfg := testenv.ClientTLS(wl.CA)
	cfg.ServerName = "localhost"
	cfg.Certificates = []tls.Certificate{caller}
	c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: cfg}}
	base := "https://" + m.addrs[0]
	hook := testenv.NewMTLSWebhook(t, wl.CA.ServerCert(t), wl.CA.Pool())
	for _, call := range []struct{ method, path, body string }{
		{"PUT", "/topics/t", `{}`},
		{"PUT", "/topics/t/eventSubscriptions/s", `{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"` + hook.URL + `"}}}}`},
		{"POST", "/topics/t/events", `[{"id":"1","subject":"s","eventType":"t","eventTime":"2026-01-01T00:00:00Z","dataVersion":"1"}]`},
	} {
		req, _ := http.NewRequest(call.method, base+call.path+q, strings.NewReader(call.body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("%s %s: %d", call.method, call.path, resp.StatusCode)
		}
	}
	got := hook.WaitCount(t, 1, 5*time.Second)[0]
	if got.ClientCert == nil || got.ClientCert.Subject.CommonName != wl.ModuleID {
		t.Fatalf("the subscriber saw client certificate %v, want the module's identity certificate", got.ClientCert)
	}
	if !strings.Contains(wl.Requests()[2].Path, "/certificate/identity") {
		t.Fatalf("workload calls %+v", wl.Requests())
	}
}
