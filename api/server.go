package api

import (
	"crypto/tls"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/resource"
)

// Limits on requests and connections. Every server sets them explicitly.
const (
	// DefaultMaxBodyBytes is the largest request body: the documented 1 MB limit
	// for a publish request (and far more than any management body needs).
	DefaultMaxBodyBytes = 1 << 20
	// readHeaderTimeout stops clients that trickle headers from pinning connections.
	readHeaderTimeout = 10 * time.Second
	// readTimeout bounds reading a whole request (1 MB at a slow 20 KB/s fits).
	readTimeout = 60 * time.Second
	// writeTimeout bounds writing a response; responses are small.
	writeTimeout = 30 * time.Second
	// idleTimeout closes idle keep-alive connections.
	idleTimeout = 120 * time.Second
	// maxHeaderBytes bounds request headers (SAS tokens and certificates fit).
	maxHeaderBytes = 64 << 10
)

// Authenticator decides whether a request may proceed (inbound SAS keys and
// client certificates). It returns nil to allow, or an error for a 401.
type Authenticator interface {
	Authenticate(r *http.Request) error
}

// Options configure a Server.
type Options struct {
	Broker   *broker.Broker
	Logger   zerolog.Logger
	Identity resource.Identity
	Limits   resource.Limits
	// MaxBodyBytes bounds request bodies; 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// Auth, when set, guards every API route (health routes excepted).
	Auth Authenticator
	// Metrics, when set, serves /metrics.
	Metrics http.Handler
	// Timeouts of the servers NewHTTPServer builds; zero fields take the
	// defaults above.
	Timeouts Timeouts
}

// Timeouts bound each phase of a connection so slow clients cannot pin it.
// ReadHeader also bounds the TLS handshake.
type Timeouts struct {
	ReadHeader, Read, Write, Idle time.Duration
}

func (t *Timeouts) setDefaults() {
	if t.ReadHeader <= 0 {
		t.ReadHeader = readHeaderTimeout
	}
	if t.Read <= 0 {
		t.Read = readTimeout
	}
	if t.Write <= 0 {
		t.Write = writeTimeout
	}
	if t.Idle <= 0 {
		t.Idle = idleTimeout
	}
}

// Server is the REST API handler.
type Server struct {
	b      *broker.Broker
	log    zerolog.Logger
	id     resource.Identity
	limits resource.Limits
	max    int64
	auth   Authenticator
	tmo    Timeouts
	routes []route
	ready  atomic.Bool
	bufs   bufferPool
}

// New builds the handler; it starts not ready (see SetReady).
func New(o Options) (*Server, error) {
	if o.Broker == nil {
		return nil, fmt.Errorf("invalid config: api: Broker is required")
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.Limits == (resource.Limits{}) {
		o.Limits = resource.DefaultLimits()
	}
	o.Timeouts.setDefaults()
	s := &Server{b: o.Broker, log: o.Logger, id: o.Identity, limits: o.Limits, max: o.MaxBodyBytes, auth: o.Auth, tmo: o.Timeouts}
	s.routes = s.routeTable(o.Metrics)
	return s, nil
}

// SetReady flips the readiness reported by /readyz (false while starting and
// draining).
func (s *Server) SetReady(v bool) { s.ready.Store(v) }

// NewHTTPServer wraps the handler in an http.Server with every timeout set.
// tlsCfg is nil for the plain HTTP listener.
func (s *Server) NewHTTPServer(tlsCfg *tls.Config) *http.Server {
	return &http.Server{
		Handler:           s,
		TLSConfig:         tlsCfg,
		ReadHeaderTimeout: s.tmo.ReadHeader,
		ReadTimeout:       s.tmo.Read,
		WriteTimeout:      s.tmo.Write,
		IdleTimeout:       s.tmo.Idle,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          newStdLogger(s.log),
	}
}

// ServeHTTP routes a request and writes its response.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.Error().Interface("panic", v).Str("path", r.URL.Path).Msg("handler panicked")
			s.writeError(w, r, fmt.Errorf("panic: %v", v))
		}
	}()
	rt, p, allowed := s.lookup(r)
	if rt == nil {
		s.noRoute(w, r, allowed)
		return
	}
	if err := s.admit(rt, r); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := rt.handle(w, r, p); err != nil {
		s.writeError(w, r, err)
	}
}

func (s *Server) noRoute(w http.ResponseWriter, r *http.Request, allowed []string) {
	if len(allowed) > 0 {
		for _, m := range allowed {
			w.Header().Add("Allow", m)
		}
		s.writeError(w, r, apiError(405, "MethodNotAllowed", fmt.Sprintf("The method %s is not allowed on %s.", r.Method, r.URL.Path)))
		return
	}
	s.writeError(w, r, apiError(404, "NotFound", fmt.Sprintf("No API matches %s %s.", r.Method, r.URL.Path)))
}

// admit checks authentication and api-version.
func (s *Server) admit(rt *route, r *http.Request) error {
	if rt.noAuth {
		return nil
	}
	if s.auth != nil {
		if err := s.auth.Authenticate(r); err != nil {
			return &Error{Status: 401, Code: "Unauthorized", Message: sentence(err)}
		}
	}
	return checkAPIVersion(r, rt.publish)
}

// checkAPIVersion requires api-version=2019-01-01-preview; publish routes also
// take the cloud's 2018-01-01 so the Azure Event Grid SDKs work unchanged.
func checkAPIVersion(r *http.Request, publish bool) error {
	v := r.URL.Query()["api-version"]
	switch {
	case len(v) == 0 || v[0] == "":
		return apiError(400, "MissingApiVersionParameter", "The api-version query parameter is required; use api-version="+resource.APIVersion+".")
	case v[0] == resource.APIVersion, publish && v[0] == "2018-01-01":
		return nil
	default:
		return apiError(400, "InvalidApiVersionParameter", fmt.Sprintf("The api-version '%s' is not supported; use api-version=%s.", v[0], resource.APIVersion))
	}
}
