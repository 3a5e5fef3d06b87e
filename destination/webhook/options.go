package webhook

import (
	"crypto/tls"
	"crypto/x509"
	"time"
)

// DefaultTimeout is how long a subscriber has to answer: the module "waits up to
// 60 seconds for a response" (delivery-retry.md).
const DefaultTimeout = 60 * time.Second

// maxDrain bounds how much of a response body is read so the connection can be
// reused; subscribers' answers are ignored beyond their status.
const maxDrain = 64 << 10

// Options configure outbound webhook delivery (the outbound__webhook__* and
// outbound__clientAuth__* settings).
type Options struct {
	// HTTPSOnly rejects http:// endpoints when a subscription is created.
	HTTPSOnly bool
	// SkipServerCertValidation turns off all checks of subscribers' certificates.
	SkipServerCertValidation bool
	// AllowUnknownCA accepts subscriber certificates that chain to no trusted root
	// (self-signed), as long as they are valid now and name the host dialled.
	AllowUnknownCA bool
	// RootCAs are trusted in addition to the system roots (e.g. the IoT Edge trust
	// bundle); nil means system roots only.
	RootCAs func() *x509.CertPool
	// ClientCertificate, when set, is presented to subscribers asking for one.
	ClientCertificate func(*tls.CertificateRequestInfo) (*tls.Certificate, error)
	// Timeout bounds one delivery attempt; 0 means DefaultTimeout.
	Timeout time.Duration
	// UserAgent is sent with every request.
	UserAgent string
	// MaxConnsPerHost bounds connections to one subscriber host (0: 64).
	MaxConnsPerHost int
}

func (o *Options) setDefaults() {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.UserAgent == "" {
		o.UserAgent = "edgegrid"
	}
	if o.MaxConnsPerHost <= 0 {
		o.MaxConnsPerHost = 64
	}
}
