package certs

import (
	"context"
	"crypto/tls"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/retry"
	"github.com/edgegrid/edgegrid/workload"
)

// defaultIssueTimeout bounds one attempt to obtain a certificate; it lies
// beyond the ~15 s the workload client spends retrying transient errors.
const defaultIssueTimeout = 60 * time.Second

// Issue obtains a fresh certificate, e.g. workload.Client.ServerCert.
type Issue func(ctx context.Context) (*workload.Certificate, error)

// RenewerOptions configure a Renewer.
type RenewerOptions struct {
	// Name says which certificate this is in logs ("server certificate").
	Name string
	// Issue obtains a certificate. Required.
	Issue Issue
	// Clock drives renewal; nil means the wall clock.
	Clock retry.Clock
	// Logger receives renewals (info), failures (warn) and an expired
	// certificate still being served (error).
	Logger zerolog.Logger
	// OnRenew, when set, runs after each successful renewal (the trust bundle
	// is refreshed this way); an error is logged and changes nothing else.
	OnRenew func(ctx context.Context) error
	// Timeout bounds one attempt; 0 means 60 s.
	Timeout time.Duration
}

// Renewer holds a certificate from the workload API and renews it before it
// expires (see renewAt). A failed renewal keeps the current certificate and
// is retried with back-off. Safe for concurrent use; renewals run one at a
// time on the clock's timer.
type Renewer struct {
	o      RenewerOptions
	log    zerolog.Logger
	cur    atomic.Pointer[held]
	ctx    context.Context
	cancel context.CancelFunc

	mu        sync.Mutex // guards the fields below
	stopTimer func() bool
	stopped   bool
	failures  int  // consecutive failed renewals
	expired   bool // the expiry of the held certificate has been reported
	wg        sync.WaitGroup
}

// held is one installed certificate.
type held struct {
	cert            *tls.Certificate
	start, notAfter time.Time
}

// NewRenewer checks o; Start obtains the first certificate.
func NewRenewer(o RenewerOptions) (*Renewer, error) {
	if o.Issue == nil {
		return nil, errors.New("invalid config: certs: RenewerOptions.Issue is required")
	}
	if o.Clock == nil {
		o.Clock = retry.RealClock{}
	}
	if o.Timeout <= 0 {
		o.Timeout = defaultIssueTimeout
	}
	if o.Name == "" {
		o.Name = "certificate"
	}
	r := &Renewer{o: o, log: o.Logger.With().Str("certificate", o.Name).Logger()}
	r.ctx, r.cancel = context.WithCancel(context.Background())
	return r, nil
}

// Current returns the certificate held now (nil before Start succeeds).
func (r *Renewer) Current() *tls.Certificate {
	if h := r.cur.Load(); h != nil {
		return h.cert
	}
	return nil
}

// GetCertificate serves the current certificate to TLS clients.
func (r *Renewer) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	if c := r.Current(); c != nil {
		return c, nil
	}
	return nil, errors.New("certs: no certificate yet")
}

// GetClientCertificate presents the current certificate to TLS servers that
// ask for one (an empty certificate before Start succeeds).
func (r *Renewer) GetClientCertificate(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
	if c := r.Current(); c != nil {
		return c, nil
	}
	return &tls.Certificate{}, nil
}
