package testenv_test

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/edgegrid/edgegrid/internal/testenv"
)

var (
	azcoreNoRetry = policy.RetryOptions{MaxRetries: -1}
	tokenRequest  = policy.TokenRequestOptions{Scopes: []string{"https://eventgrid.azure.net/.default"}}
)

const egEvent = `{"id":"1","subject":"s","eventType":"t","eventTime":"2026-01-01T00:00:00Z","dataVersion":"1.0","data":{}}`

// TestCloudDoubleRules: each rule of the data-plane endpoint, one request each.
func TestCloudDoubleRules(t *testing.T) {
	ca := testenv.NewCA(t, "cloud")
	tokens := testenv.NewTokens()
	mi := testenv.NewManagedIdentity(t, tokens)
	mi.SetLifetime(-time.Second) // issues tokens that are already expired
	expired := issueMI(t, mi)
	big := "[" + strings.Repeat(" ", testenv.CloudMaxRequestBytes) + egEvent + "]"
	tests := map[string]struct {
		schema, query, ct, body string
		headers                 map[string]string
		script                  int
		want                    int
		reason                  string
	}{
		"accepted":              {"", "api-version=2018-01-01", "application/json", "[" + egEvent + "]", key("K"), 0, 200, ""},
		"charset allowed":       {"", "api-version=2018-01-01", "application/json; charset=utf-8", "[" + egEvent + "]", key("K"), 0, 200, ""},
		"wrong api-version":     {"", "api-version=2019-01-01", "application/json", "[" + egEvent + "]", key("K"), 0, 400, "api-version"},
		"no authentication":     {"", "api-version=2018-01-01", "application/json", "[" + egEvent + "]", nil, 0, 401, "aeg-sas-key"},
		"wrong key":             {"", "api-version=2018-01-01", "application/json", "[" + egEvent + "]", key("X"), 0, 401, "key is invalid"},
		"unknown token":         {"", "api-version=2018-01-01", "application/json", "[" + egEvent + "]", bearer("forged"), 0, 401, "not issued"},
		"expired token":         {"", "api-version=2018-01-01", "application/json", "[" + egEvent + "]", bearer(expired), 0, 401, "expired"},
		"over 1 MB":             {"", "api-version=2018-01-01", "application/json", big, key("K"), 0, 413, "maximum size"},
		"cloudevents type":      {"", "api-version=2018-01-01", "application/cloudevents-batch+json; charset=utf-8", "[" + egEvent + "]", key("K"), 0, 400, "Content-Type"},
		"not an array":          {"", "api-version=2018-01-01", "application/json", egEvent, key("K"), 0, 400, "JSON array"},
		"empty array":           {"", "api-version=2018-01-01", "application/json", "[]", key("K"), 0, 400, "at least one"},
		"missing eventTime":     {"", "api-version=2018-01-01", "application/json", `[{"id":"1","subject":"s","eventType":"t","dataVersion":"1"}]`, key("K"), 0, 400, "eventTime"},
		"bad eventTime":         {"", "api-version=2018-01-01", "application/json", `[{"id":"1","subject":"s","eventType":"t","eventTime":"yesterday","dataVersion":"1"}]`, key("K"), 0, 400, "ISO 8601"},
		"topic not a string":    {"", "api-version=2018-01-01", "application/json", `[{"id":"1","subject":"s","eventType":"t","eventTime":"2026-01-01T00:00:00Z","dataVersion":"1","topic":5}]`, key("K"), 0, 400, "topic"},
		"cloudevents accepted":  {testenv.CloudCloudEventsSchema, "api-version=2018-01-01", "application/cloudevents-batch+json; charset=utf-8", `[{"id":"1","source":"s","type":"t","specversion":"1.0"}]`, key("K"), 0, 200, ""},
		"cloudevents as json":   {testenv.CloudCloudEventsSchema, "api-version=2018-01-01", "application/json", `[{"id":"1","source":"s","type":"t","specversion":"1.0"}]`, key("K"), 0, 400, "Content-Type"},
		"cloudevents no source": {testenv.CloudCloudEventsSchema, "api-version=2018-01-01", "application/cloudevents-batch+json", `[{"id":"1","type":"t","specversion":"1.0"}]`, key("K"), 0, 400, "source"},
		"custom verbatim":       {testenv.CloudCustomSchema, "api-version=2018-01-01", "application/json", `[{"anything":1}]`, key("K"), 0, 200, ""},
		"scripted 429":          {"", "api-version=2018-01-01", "application/json", "[" + egEvent + "]", key("K"), 429, 429, "Scripted"},
		"scripted 503":          {"", "api-version=2018-01-01", "application/json", "[" + egEvent + "]", key("K"), 503, 503, "Scripted"},
		"script after auth":     {"", "api-version=2018-01-01", "application/json", "[" + egEvent + "]", key("X"), 503, 401, "key"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := testenv.NewCloudEventGrid(t, ca, testenv.CloudOptions{Key: "K", Tokens: tokens, Schema: tc.schema})
			if tc.script != 0 {
				c.Script(tc.script)
			}
			req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, c.Server.URL+"/api/events?"+tc.query, bytes.NewBufferString(tc.body))
			req.Header.Set("Content-Type", tc.ct)
			for k, v := range tc.headers {
				req.Header.Set(k, v)
			}
			resp, err := (&http.Client{Transport: &http.Transport{TLSClientConfig: testenv.ClientTLS(ca)}}).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			got := c.Requests()[0]
			if resp.StatusCode != tc.want || got.Status != tc.want || !strings.Contains(got.Reason, tc.reason) {
				t.Fatalf("status %d, recorded %d %q; want %d %q", resp.StatusCode, got.Status, got.Reason, tc.want, tc.reason)
			}
			if (tc.want == 429 || tc.want == 503) && resp.Header.Get("Retry-After") == "" {
				t.Fatal("no Retry-After")
			}
		})
	}
}

func key(k string) map[string]string    { return map[string]string{"aeg-sas-key": k} }
func bearer(t string) map[string]string { return map[string]string{"Authorization": "Bearer " + t} }

// issueMI gets a token from the managed identity double over its protocol.
func issueMI(t *testing.T, mi *testenv.ManagedIdentity) string {
	t.Helper()
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, mi.Endpoint()+"?api-version=2019-08-01&resource=https://eventgrid.azure.net", nil)
	req.Header.Set("X-IDENTITY-HEADER", mi.Header)
	resp, err := (&http.Client{}).Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("managed identity: %v %v", resp, err)
	}
	resp.Body.Close()
	issued := mi.Tokens.Issued()
	return issued[len(issued)-1].Token
}
