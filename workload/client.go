// Package workload is a client for the IoT Edge workload API (aziot-edged, and
// iotedged 1.0/1.1): the module's server and identity certificates, the trust
// bundle, and HMAC signing with the module's key (for edgeHub SAS tokens).
//
// It speaks HTTP/1.1 over the Unix socket named by IOTEDGE_WORKLOADURI
// (unix:///var/run/iotedge/workload.sock) or over http(s) for development
// setups. At most two requests run at once (the runtime closes connections
// beyond ten per module); EOF, resets and 5xx are retried with backoff, 4xx
// are not, and an "invalid api-version" answer is retried once with the oldest
// version every route accepts.
package workload

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Versions of the workload API.
const (
	// DefaultAPIVersion is used when IOTEDGE_APIVERSION is not set.
	DefaultAPIVersion = "2019-01-30"
	// OldestAPIVersion is accepted by every route of every runtime.
	OldestAPIVersion = "2018-06-28"
)

// Tunables with the reasons for their values.
const (
	requestTimeout = 10 * time.Second // the runtime answers in milliseconds; 10 s covers a busy device
	maxInFlight    = 2                // far below the runtime's 10-requests-per-module throttle
	maxAttempts    = 5                // with 1 s doubling backoff: gives up after ~15 s
)

// ErrStatus wraps non-2xx answers; use errors.As with *StatusError for details.
var ErrStatus = errors.New("workload: unexpected status")

// StatusError is a non-2xx answer of the workload API.
type StatusError struct {
	Status  int
	Message string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("workload API answered %d: %s", e.Status, e.Message)
}

// Unwrap returns ErrStatus.
func (e *StatusError) Unwrap() error { return ErrStatus }

// Client calls the workload API for one module.
type Client struct {
	base         string // scheme://host used in request URLs
	http         *http.Client
	moduleID     string
	generationID string
	apiVersion   string
	sem          chan struct{}
	backoff      time.Duration
}

// Options identify the module (the IOTEDGE_* environment).
type Options struct {
	URI          string // IOTEDGE_WORKLOADURI
	ModuleID     string // IOTEDGE_MODULEID
	GenerationID string // IOTEDGE_MODULEGENERATIONID
	APIVersion   string // IOTEDGE_APIVERSION; empty means DefaultAPIVersion
	// Backoff is the first wait before a retry (doubling, at most 30 s); 0 means 1 s.
	Backoff time.Duration
}

// New builds a client; it does not contact the runtime.
func New(o Options) (*Client, error) {
	if o.ModuleID == "" || o.GenerationID == "" {
		return nil, errors.New("invalid config: workload: module id and generation id are required")
	}
	u, err := url.Parse(o.URI)
	if err != nil {
		return nil, fmt.Errorf("invalid config: workload URI %q: %w", o.URI, err)
	}
	c := &Client{moduleID: o.ModuleID, generationID: o.GenerationID, apiVersion: o.APIVersion,
		sem: make(chan struct{}, maxInFlight), backoff: time.Second}
	if o.Backoff > 0 {
		c.backoff = o.Backoff
	}
	if c.apiVersion == "" {
		c.apiVersion = DefaultAPIVersion
	}
	tr := &http.Transport{MaxIdleConns: maxInFlight, IdleConnTimeout: 30 * time.Second}
	switch u.Scheme {
	case "unix":
		path := u.Path
		if path == "" {
			return nil, fmt.Errorf("invalid config: workload URI %q has no socket path", o.URI)
		}
		tr.DialContext = func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", path)
		}
		c.base = "http://workload" // the host is ignored over the socket
	case "http", "https":
		c.base = strings.TrimRight(u.Scheme+"://"+u.Host, "/")
	default:
		return nil, fmt.Errorf("invalid config: workload URI %q must be unix://, http:// or https://", o.URI)
	}
	c.http = &http.Client{Transport: tr, Timeout: requestTimeout}
	return c, nil
}

// ModuleID is the module this client speaks for.
func (c *Client) ModuleID() string { return c.moduleID }
