package e2e

import (
	"crypto/tls"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/internal/testenv"
)

// edgeClient trusts only the workload double's CA, expects the gateway host
// name the double's environment sets, and presents cert when not nil.
func edgeClient(wl *testenv.Workload, cert *tls.Certificate, keepAlive bool) *http.Client {
	cfg := testenv.ClientTLS(wl.CA)
	cfg.ServerName = "localhost" // IOTEDGE_GATEWAYHOSTNAME in wl.Env()
	if cert != nil {
		cfg.Certificates = []tls.Certificate{*cert}
	}
	return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: cfg,
		DisableKeepAlives: !keepAlive, MaxConnsPerHost: 1}}
}

// get requests url and returns the status, body and the serial of the server
// certificate on that connection.
func get(t *testing.T, c *http.Client, url string) (int, string, string) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if len(resp.TLS.VerifiedChains) == 0 {
		t.Fatal("the server certificate was not verified")
	}
	return resp.StatusCode, string(b), resp.TLS.PeerCertificates[0].SerialNumber.String()
}

// TestEdgeHTTPSAndRenewal: under IoT Edge (the workload API double on a Unix
// socket) HTTPS serves the issued certificate, which verifies against the
// trust bundle; callers need a certificate from the bundle's CA; and once the
// certificate nears expiry a renewed one is served to new connections while
// an open connection carries on.
func TestEdgeHTTPSAndRenewal(t *testing.T) {
	t.Parallel()
	wl := testenv.NewWorkload(t)
	wl.SetCertLifetime(4 * time.Second) // renewed at half its life, every 2 s
	m := startModule(t, append(wl.Env(), "inbound__serverAuth__tlsPolicy=strict", "inbound__clientAuth__clientCert__enabled=true",
		"inbound__clientAuth__clientCert__allowUnknownCA=false")...)
	caller, _, _ := wl.CA.Issue(t, testenv.LeafOptions{CommonName: "publisher", Client: true})
	kept := edgeClient(wl, &caller, true)
	status, body, first := get(t, kept, m.HTTPSURL+"/topics"+q)
	if status != 200 || body != "[]\n" && body != "[]" {
		t.Fatalf("with an IoT Edge-issued client certificate: %d %s", status, body)
	}
	status, body, _ = get(t, edgeClient(wl, nil, false), m.HTTPSURL+"/topics"+q)
	if status != 401 || !strings.Contains(body, `"code":"Unauthorized"`) || !strings.Contains(body, "No client certificate was presented") {
		t.Fatalf("without a client certificate: %d %s", status, body)
	}
	var renewed string
	testenv.Eventually(t, 10*time.Second, "a renewed server certificate on a new connection", func() bool {
		_, _, renewed = get(t, edgeClient(wl, &caller, false), m.HTTPSURL+"/api/health")
		return renewed != first
	})
	if _, _, again := get(t, kept, m.HTTPSURL+"/topics"+q); again != first {
		t.Fatalf("the open connection was dropped by the renewal (serial %s, want %s)", again, first)
	}
	if len(m.LogLines("certificate renewed; new connections get the new one")) == 0 {
		t.Fatal("no renewal logged")
	}
}

// TestEdgeOutboundMutualTLS: deliveries present the module's identity
// certificate to a subscriber that requires one, and check the subscriber's
// certificate against the trust bundle.
func TestEdgeOutboundMutualTLS(t *testing.T) {
	t.Parallel()
	wl := testenv.NewWorkload(t)
	hook := testenv.NewMTLSWebhook(t, wl.CA.ServerCert(t), wl.CA.Pool())
	m := startModule(t, append(wl.Env(), "inbound__serverAuth__tlsPolicy=enabled", "outbound__webhook__httpsOnly=true",
		"outbound__webhook__allowUnknownCA=false")...)
	m.must("PUT", m.HTTPURL+"/topics/t"+q, `{}`)
	m.must("PUT", m.HTTPURL+"/topics/t/eventSubscriptions/s"+q,
		`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"`+hook.URL+`/api/events"}}}}`)
	m.must("POST", m.HTTPURL+"/topics/t/events"+q, `[{"id":"1","subject":"s","eventType":"t","eventTime":"2026-01-01T00:00:00Z","dataVersion":"1"}]`)
	got := hook.WaitCount(t, 1, 5*time.Second)[0]
	if got.ClientCert == nil || got.ClientCert.Subject.CommonName != wl.ModuleID {
		t.Fatalf("client certificate %v, want the module's identity certificate", got.ClientCert)
	}
	var ev []map[string]any
	if json.Unmarshal(got.Body, &ev) != nil || len(ev) != 1 || ev[0]["id"] != "1" {
		t.Fatalf("delivered %s", got.Body)
	}
}

// TestEdgeStartFailsWithoutWorkloadAPI: the binary exits with a clear
// message when the workload API stays unreachable (after ~15 s of retries).
func TestEdgeStartFailsWithoutWorkloadAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out the workload client's retries (~15 s); the module package tests the same with a short back-off")
	}
	t.Parallel()
	wl := testenv.NewWorkload(t)
	cmd := command(nil, append(wl.Env(), "IOTEDGE_WORKLOADURI=unix:///nonexistent/workload.sock", "broker__metadataDbPath=none")...)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("exit %v, want 1:\n%s", err, out)
	}
	if !strings.Contains(string(out), "could not get the trust bundle from the workload API at unix:///nonexistent/workload.sock") {
		t.Fatalf("output does not explain the failure:\n%s", out)
	}
}
