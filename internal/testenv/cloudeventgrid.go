package testenv

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"
)

// CloudMaxRequestBytes is cloud Event Grid's publish request limit (1 MB).
const CloudMaxRequestBytes = 1 << 20

// The input schemas a cloud topic may have.
const (
	CloudEventGridSchema   = "EventGridSchema"
	CloudCloudEventsSchema = "CloudEventSchemaV1_0"
	CloudCustomSchema      = "CustomEventSchema"
)

// CloudOptions describe the cloud topic a CloudEventGrid plays.
type CloudOptions struct {
	// Key is the topic's access key accepted in aeg-sas-key ("": none).
	Key string
	// Tokens are the bearer tokens accepted ("": tokens refused).
	Tokens *Tokens
	// Schema is the topic's input schema (default CloudEventGridSchema).
	Schema string
}

// CloudRequest is one request the double received and how it answered.
type CloudRequest struct {
	Header http.Header
	Query  string
	Body   []byte
	Auth   string      // "sas", "bearer" or "" (none or refused)
	Token  IssuedToken // the bearer token's record, when Auth is "bearer"
	Status int         // the status answered
	Reason string      // why, when Status is not 200
	At     time.Time
}

// CloudEventGrid behaves like the data-plane endpoint of a cloud Event Grid
// topic (POST https://{topic}.{region}-1.eventgrid.azure.net/api/events?api-version=2018-01-01)
// over TLS: it checks the path and api-version, the aeg-sas-key or a bearer
// token from Tokens (unexpired, for https://eventgrid.azure.net, principal
// not denied), the 1 MB request limit, the content type and the body against
// the topic's schema, answers 200 or the cloud's error statuses with its
// error body, and records everything. Script makes it answer chosen statuses.
type CloudEventGrid struct {
	Server *httptest.Server
	URL    string // the endpoint URL, with /api/events?api-version=2018-01-01
	opts   CloudOptions

	mu     sync.Mutex
	reqs   []CloudRequest
	script []int
	denied map[string]bool
	hang   chan struct{}
	hung   bool
	held   int
}

// NewCloudEventGrid starts the double with a server certificate from ca.
func NewCloudEventGrid(tb testing.TB, ca *CA, o CloudOptions) *CloudEventGrid {
	if o.Schema == "" {
		o.Schema = CloudEventGridSchema
	}
	c := &CloudEventGrid{opts: o, denied: map[string]bool{}, hang: make(chan struct{})}
	cert := ca.ServerCert(tb)
	c.Server = httptest.NewUnstartedServer(c)
	c.Server.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	c.Server.StartTLS()
	c.URL = c.Server.URL + "/api/events?api-version=2018-01-01"
	tb.Cleanup(func() {
		c.Unhang()
		c.Server.CloseClientConnections()
		c.Server.Close()
	})
	return c
}

// Script makes the next authenticated requests answer these statuses (401,
// 403, 413, 429, 503...) with the cloud's error body; 200 means normal
// service for that request. After the script, normal service.
func (c *CloudEventGrid) Script(statuses ...int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.script = append([]int(nil), statuses...)
}

// Deny makes tokens of principal clientID answer 403, as when it lacks the
// EventGrid Data Sender role.
func (c *CloudEventGrid) Deny(clientID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.denied[clientID] = true
}

// Hang holds every later request until Unhang or the client gives up.
func (c *CloudEventGrid) Hang() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.hung = true
}

// Unhang releases held requests and stops holding (idempotent).
func (c *CloudEventGrid) Unhang() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.hung {
		close(c.hang)
		c.hang, c.hung = make(chan struct{}), false
	}
}

// Held counts the requests that arrived while the double was hung.
func (c *CloudEventGrid) Held() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.held
}

// Requests returns a copy of what was received so far.
func (c *CloudEventGrid) Requests() []CloudRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]CloudRequest(nil), c.reqs...)
}

// Accepted returns the requests answered 200.
func (c *CloudEventGrid) Accepted() []CloudRequest {
	var out []CloudRequest
	for _, r := range c.Requests() {
		if r.Status == http.StatusOK {
			out = append(out, r)
		}
	}
	return out
}

// WaitRequests waits until at least n requests were answered.
func (c *CloudEventGrid) WaitRequests(tb testing.TB, n int, timeout time.Duration) []CloudRequest {
	tb.Helper()
	Eventually(tb, timeout, strconv.Itoa(n)+" cloud requests", func() bool { return len(c.Requests()) >= n })
	return c.Requests()
}
