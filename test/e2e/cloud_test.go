package e2e

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/internal/testenv"
)

// cloudEnv is a local cloud: one CA whose certificate the module trusts
// through SSL_CERT_FILE (how Go on Linux takes a private root), the token
// doubles and the env that points the module at them.
type cloudEnv struct {
	ca     *testenv.CA
	tokens *testenv.Tokens
	env    []string
}

func newCloudEnv(t *testing.T) *cloudEnv {
	ca := testenv.NewCA(t, "local cloud CA")
	return &cloudEnv{ca: ca, tokens: testenv.NewTokens(), env: []string{
		"SSL_CERT_FILE=" + testenv.WriteFile(t, "ca.pem", ca.CertPEM),
		"outbound__eventgrid__allowInvalidHostnames=true",
	}}
}

// forward creates topic t1, a subscription with the given EventGrid
// destination properties, publishes two events and returns what the cloud got.
func forward(t *testing.T, m *module, cloud *testenv.CloudEventGrid, props string) []json.RawMessage {
	t.Helper()
	m.must("PUT", m.HTTPURL+"/topics/t1"+q, `{"properties":{"inputSchema":"EventGridSchema"}}`)
	m.must("PUT", m.HTTPURL+"/topics/t1/eventSubscriptions/toCloud"+q,
		`{"properties":{"destination":{"endpointType":"EventGrid","properties":{"endpointUrl":"`+cloud.URL+`",`+props+`}}}}`)
	m.must("POST", m.HTTPURL+"/topics/t1/events"+q,
		`[{"id":"e1","eventType":"recordInserted","subject":"myapp/vehicles/motorcycles","eventTime":"2019-07-28T21:03:07+00:00","dataVersion":"1.0","data":{"make":"Ducati"}},
		  {"id":"e2","eventType":"recordInserted","subject":"myapp/vehicles/cars","eventTime":"2019-07-28T21:03:08+00:00","dataVersion":"1.0","data":{"make":"Fiat"}}]`)
	testenv.Eventually(t, 10*time.Second, "two events in the cloud", func() bool { return len(cloud.Events()) == 2 })
	return cloud.Events()
}

// TestForwardToCloudWithSASKey: local publish → EventGrid subscription → the
// cloud double gets both events with the key and the topic rewritten; the
// key is never echoed or logged. A wrong key is logged once, not per event.
func TestForwardToCloudWithSASKey(t *testing.T) {
	t.Parallel()
	c := newCloudEnv(t)
	cloud := testenv.NewCloudEventGrid(t, c.ca, testenv.CloudOptions{Key: "TOPIC-KEY-abc123"})
	m := startModule(t, c.env...)
	evs := forward(t, m, cloud, `"sasKey":"TOPIC-KEY-abc123","topicName":"cloudTopic"`)
	var e struct{ ID, Topic string }
	if err := json.Unmarshal(evs[0], &e); err != nil || e.Topic != "cloudTopic" {
		t.Fatalf("cloud got %s", evs[0])
	}
	for _, r := range cloud.Accepted() {
		if r.Auth != "sas" || r.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("request %+v", r)
		}
	}
	if got := m.must("GET", m.HTTPURL+"/topics/t1/eventSubscriptions/toCloud"+q, ""); strings.Contains(got, "TOPIC-KEY") || !strings.Contains(got, `"endpointType":"EventGrid"`) {
		t.Fatalf("GET shows %s", got)
	}
	m.must("PUT", m.HTTPURL+"/topics/t1/eventSubscriptions/wrongKey"+q,
		`{"properties":{"destination":{"endpointType":"EventGrid","properties":{"endpointUrl":"`+cloud.URL+`","sasKey":"WRONG-KEY-xyz789"}}}}`)
	m.must("POST", m.HTTPURL+"/topics/t1/events"+q, threeEvents)
	testenv.Eventually(t, 10*time.Second, "three drops", func() bool { return len(m.LogLines("event dropped")) == 3 })
	if n := strings.Count(m.Logs(), "cloud Event Grid refused the SAS key of subscription wrongKey: 401 Unauthorized"); n != 1 {
		t.Fatalf("%d refusal lines, want 1", n)
	}
	if logs := m.Logs(); strings.Contains(logs, "KEY-abc123") || strings.Contains(logs, "KEY-xyz789") {
		t.Fatal("a key appears in the log")
	}
}

const threeEvents = `[{"id":"w1","eventType":"t","subject":"s","eventTime":"2026-01-01T00:00:00Z","dataVersion":"1"},
	{"id":"w2","eventType":"t","subject":"s","eventTime":"2026-01-01T00:00:00Z","dataVersion":"1"},
	{"id":"w3","eventType":"t","subject":"s","eventTime":"2026-01-01T00:00:00Z","dataVersion":"1"}]`

// TestForwardToCloudWithEntraID: the module gets a token from the local
// Entra ID with a service principal secret and the cloud double accepts it;
// once the cloud refuses the token, events are dropped and that is logged once.
func TestForwardToCloudWithEntraID(t *testing.T) {
	t.Parallel()
	c := newCloudEnv(t)
	entra := testenv.NewEntra(t, c.ca, c.tokens, "72f988bf-86f1-41af-91ab-2d7cd011db47", "0d3a7b6e-1111-2222-3333-444455556666")
	entra.SetSecret("client-secret-value~1")
	cloud := testenv.NewCloudEventGrid(t, c.ca, testenv.CloudOptions{Tokens: c.tokens})
	m := startModule(t, append(c.env,
		"AZURE_TENANT_ID="+entra.Tenant, "AZURE_CLIENT_ID="+entra.ClientID, "AZURE_CLIENT_SECRET=client-secret-value~1",
		"AZURE_AUTHORITY_HOST="+entra.Authority, "outbound__eventgrid__disableInstanceDiscovery=true")...)
	forward(t, m, cloud, `"authentication":"EntraId"`)
	for _, r := range cloud.Accepted() {
		if r.Auth != "bearer" || r.Token.Via != "secret" || r.Token.ClientID != entra.ClientID {
			t.Fatalf("request %+v", r)
		}
	}
	if len(entra.TokenRequests()) != 1 {
		t.Fatalf("%d token requests, want 1 (cached)", len(entra.TokenRequests()))
	}
	if got := m.must("GET", m.HTTPURL+"/topics/t1/eventSubscriptions/toCloud"+q, ""); !strings.Contains(got, `"authentication":"EntraId"`) {
		t.Fatalf("GET shows %s", got)
	}
	c.tokens.Revoke() // the cloud stops accepting the cached token: 401, dropped, logged once
	m.must("POST", m.HTTPURL+"/topics/t1/events"+q, threeEvents)
	testenv.Eventually(t, 10*time.Second, "three drops", func() bool { return len(m.LogLines("event dropped")) == 3 })
	if n := strings.Count(m.Logs(), "cloud Event Grid refused the Entra ID token of subscription toCloud: 401 Unauthorized"); n != 1 {
		t.Fatalf("%d refusal lines, want 1", n)
	}
	if strings.Contains(m.Logs(), "client-secret-value") {
		t.Fatal("the client secret appears in the log")
	}
}

// TestForwardToCloudWithManagedIdentity: with the host's IDENTITY_ENDPOINT
// and IDENTITY_HEADER, a subscription without a key uses the managed identity.
func TestForwardToCloudWithManagedIdentity(t *testing.T) {
	t.Parallel()
	c := newCloudEnv(t)
	mi := testenv.NewManagedIdentity(t, c.tokens)
	cloud := testenv.NewCloudEventGrid(t, c.ca, testenv.CloudOptions{Tokens: c.tokens})
	m := startModule(t, append(c.env, mi.Env()...)...)
	forward(t, m, cloud, `"topicName":null`)
	if r := cloud.Accepted()[0]; r.Token.Via != "managedIdentity" {
		t.Fatalf("request %+v", r)
	}
}

// TestCloudAuthenticationRefusals: without any Azure credential an EventGrid
// subscription needs a key; a credential configured wrongly stops the module
// at start, naming the variables.
func TestCloudAuthenticationRefusals(t *testing.T) {
	t.Parallel()
	m := startModule(t)
	m.must("PUT", m.HTTPURL+"/topics/t1"+q, `{"properties":{"inputSchema":"EventGridSchema"}}`)
	status, body := m.call("PUT", m.HTTPURL+"/topics/t1/eventSubscriptions/s"+q,
		`{"properties":{"destination":{"endpointType":"EventGrid","properties":{"endpointUrl":"https://t.westus2-1.eventgrid.azure.net/api/events?api-version=2018-01-01","authentication":"EntraId"}}}}`)
	if status != 400 || !strings.Contains(body, "InvalidDestination") || !strings.Contains(body, "AZURE_CLIENT_SECRET") {
		t.Fatalf("%d %s", status, body)
	}
	for env, want := range map[string]string{
		"AZURE_CLIENT_SECRET=s":                              "AZURE_TENANT_ID, AZURE_CLIENT_ID: missing",
		"AZURE_CLIENT_CERTIFICATE_PATH=/nonexistent/app.pem": "AZURE_TENANT_ID, AZURE_CLIENT_ID: missing",
	} {
		out, err := command(nil, env).CombinedOutput()
		if err == nil || !strings.Contains(string(out), want) {
			t.Fatalf("%s: %v\n%s", env, err, out)
		}
	}
	out, err := command(nil, "AZURE_TENANT_ID=t", "AZURE_CLIENT_ID=c", "AZURE_CLIENT_CERTIFICATE_PATH=/nonexistent/app.pem",
		"inbound__serverAuth__tlsPolicy=disabled", "inbound__httpPort=0", "broker__metadataDbPath=none").CombinedOutput()
	if err == nil || !strings.Contains(string(out), `AZURE_CLIENT_CERTIFICATE_PATH=\"/nonexistent/app.pem\" cannot be read`) {
		t.Fatalf("missing certificate file: %v\n%s", err, out)
	}
}
