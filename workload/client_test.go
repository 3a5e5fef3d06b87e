package workload_test

import (
	"context"
	"crypto/x509"
	"errors"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/internal/testenv"
	"github.com/edgegrid/edgegrid/workload"
)

func newClient(t *testing.T, wl *testenv.Workload, version string) *workload.Client {
	t.Helper()
	c, err := workload.New(workload.Options{URI: wl.URI, ModuleID: wl.ModuleID, GenerationID: wl.GenerationID, APIVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestServerCertChainsToTrustBundle(t *testing.T) {
	wl := testenv.NewWorkload(t)
	c := newClient(t, wl, "2022-08-03")
	ctx := context.Background()
	_, pool, err := c.TrustBundle(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := c.ServerCert(ctx, "mygateway.local", time.Now().Add(90*24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"mygateway.local", "eventgridmodule"} {
		if _, err := cert.TLS.Leaf.Verify(x509.VerifyOptions{DNSName: name, Roots: pool}); err != nil {
			t.Fatalf("server certificate for %s: %v", name, err)
		}
	}
	if time.Until(cert.Expiration) > 25*time.Hour || time.Until(cert.Expiration) < 23*time.Hour {
		t.Fatalf("expiration %v, want the runtime's 24 h, not the 90 days asked for", cert.Expiration)
	}
	reqs := wl.Requests()
	last := reqs[len(reqs)-1]
	if last.Path != "/modules/eventgridmodule/genid/637911101449272999/certificate/server" || last.APIVersion != "2022-08-03" || last.Body["commonName"] != "mygateway.local" {
		t.Fatalf("request %+v", last)
	}
}

func TestIdentityCertIsClientCert(t *testing.T) {
	wl := testenv.NewWorkload(t)
	cert, err := newClient(t, wl, "").IdentityCert(context.Background(), time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if cert.TLS.Leaf.Subject.CommonName != "eventgridmodule" || cert.TLS.Leaf.ExtKeyUsage[0] != x509.ExtKeyUsageClientAuth {
		t.Fatalf("identity cert %v %v", cert.TLS.Leaf.Subject, cert.TLS.Leaf.ExtKeyUsage)
	}
	if v := wl.Requests()[0].APIVersion; v != workload.DefaultAPIVersion {
		t.Fatalf("api-version %q", v)
	}
}

func TestSign(t *testing.T) {
	wl := testenv.NewWorkload(t)
	data := []byte("contoso.azure-devices.net%2Fdevices%2Fgw1%2Fmodules%2Feventgridmodule\n1700000000")
	got, err := newClient(t, wl, "").Sign(context.Background(), data)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(wl.Sign(data)) {
		t.Fatal("digest differs from HMAC-SHA256 with the module key")
	}
	if wl.Requests()[0].Body["algo"] != "HMACSHA256" || wl.Requests()[0].Body["keyId"] != "primary" {
		t.Fatalf("body %v", wl.Requests()[0].Body)
	}
}

func TestRetriesTransientFailures(t *testing.T) {
	wl := testenv.NewWorkload(t)
	wl.FailNext(500, 0, 503)
	c, _ := workload.New(workload.Options{URI: wl.URI, ModuleID: wl.ModuleID, GenerationID: wl.GenerationID, Backoff: 5 * time.Millisecond})
	if _, _, err := c.TrustBundle(context.Background()); err != nil {
		t.Fatalf("after 500, dropped connection, 503: %v", err)
	}
	if n := len(wl.Requests()); n != 4 {
		t.Fatalf("%d requests, want 4", n)
	}
}

func TestNoRetryOnClientErrors(t *testing.T) {
	wl := testenv.NewWorkload(t)
	c, _ := workload.New(workload.Options{URI: wl.URI, ModuleID: "someoneelse", GenerationID: wl.GenerationID})
	_, err := c.Sign(context.Background(), []byte("x"))
	var se *workload.StatusError
	if !errors.As(err, &se) || se.Status != 403 || len(wl.Requests()) != 1 {
		t.Fatalf("err %v after %d requests", err, len(wl.Requests()))
	}
}

func TestFallsBackToOldestAPIVersion(t *testing.T) {
	wl := testenv.NewWorkload(t)
	if _, _, err := newClient(t, wl, "2099-01-01").TrustBundle(context.Background()); err != nil {
		t.Fatal(err)
	}
	reqs := wl.Requests()
	if len(reqs) != 2 || reqs[1].APIVersion != workload.OldestAPIVersion {
		t.Fatalf("requests %+v", reqs)
	}
}

func TestNewValidates(t *testing.T) {
	for name, o := range map[string]workload.Options{
		"no module":    {URI: "unix:///x", GenerationID: "g"},
		"bad scheme":   {URI: "ftp://x", ModuleID: "m", GenerationID: "g"},
		"unix no path": {URI: "unix://", ModuleID: "m", GenerationID: "g"},
	} {
		if _, err := workload.New(o); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
