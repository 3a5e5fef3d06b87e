package main

import (
	"context"
	"crypto/tls"
	"os"
	"time"

	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/auth"
	"github.com/edgegrid/edgegrid/certs"
	"github.com/edgegrid/edgegrid/hostconfig"
	"github.com/edgegrid/edgegrid/retry"
)

// securityStartTimeout bounds obtaining certificates at start: enough for
// the workload client's ~15 s of retries on each of its calls.
const securityStartTimeout = 45 * time.Second

// certSource is a certificate served to TLS peers (certs.Static or
// certs.Renewer).
type certSource interface {
	GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error)
	GetClientCertificate(*tls.CertificateRequestInfo) (*tls.Certificate, error)
}

// security is the module's TLS material and inbound authenticator.
type security struct {
	server   certSource // HTTPS certificate; nil without an HTTPS listener
	identity certSource // presented to subscribers; nil: none
	bundle   *certs.Bundle
	auth     *auth.Authenticator
	renewers []*certs.Renewer
}

// seams lets tests shorten the workload client's back-off and move time.
type seams struct {
	workloadBackoff time.Duration
	clock           retry.Clock
}

// newSecurity obtains the certificates (IoT Edge workload API in edge mode,
// files or a self-signed certificate otherwise) and builds the
// authenticator. In edge mode it fails when the workload API cannot be
// reached, since the module cannot serve HTTPS or check clients without it.
func newSecurity(ctx context.Context, cfg *hostconfig.Config, log zerolog.Logger, sm seams) (*security, error) {
	ctx, cancel := context.WithTimeout(ctx, securityStartTimeout)
	defer cancel()
	s := &security{bundle: &certs.Bundle{}}
	var err error
	if cfg.Mode() == hostconfig.ModeEdge {
		err = s.fromWorkload(ctx, cfg, log, sm)
	} else {
		err = s.standalone(cfg, log)
	}
	if err != nil {
		s.stop()
		return nil, err
	}
	in := cfg.Inbound
	s.auth, err = auth.New(auth.Options{ClientCert: in.ClientCertEnabled, AllowUnknownCA: in.ClientCertAllowUnknownCA,
		TrustBundle: s.bundle.Pool, SASKeys: in.SASKeysEnabled, Key1: in.SASKey1, Key2: in.SASKey2})
	if err != nil {
		s.stop()
		return nil, err
	}
	return s, nil
}

// serverTLS is the HTTPS listener's configuration.
func (s *security) serverTLS(cfg *hostconfig.Config) *tls.Config {
	return certs.ServerConfig(s.server.GetCertificate, cfg.Inbound.ClientCertEnabled)
}

// clientCertificate is what webhook deliveries present, or nil.
func (s *security) clientCertificate() func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
	if s.identity == nil {
		return nil
	}
	return s.identity.GetClientCertificate
}

// stop ends certificate renewal.
func (s *security) stop() {
	for _, r := range s.renewers {
		r.Stop()
	}
}

// standalone loads certificates from files or generates the HTTPS one.
func (s *security) standalone(cfg *hostconfig.Config, log zerolog.Logger) error {
	if cfg.Inbound.ServeHTTPS() {
		srv, err := standaloneServerCert(cfg.Inbound, log)
		if err != nil {
			return err
		}
		s.server = srv
	}
	out := cfg.Outbound
	if !out.ClientCertEnabled || out.ClientCertFile == "" {
		log.Info().Msg("no client certificate is presented to webhook subscribers outside IoT Edge (set outbound__clientAuth__clientCert__certFile and __keyFile to present one)")
		return nil
	}
	id, err := certs.LoadFiles(out.ClientCertFile, out.ClientKeyFile)
	if err != nil {
		return err
	}
	logCert(log.Info(), id.Current()).Msg("presenting this client certificate to webhook subscribers that ask for one")
	s.identity = id
	return nil
}

func standaloneServerCert(in hostconfig.Inbound, log zerolog.Logger) (*certs.Static, error) {
	if in.ServerCertFile != "" {
		c, err := certs.LoadFiles(in.ServerCertFile, in.ServerKeyFile)
		if err != nil {
			return nil, err
		}
		ev := log.Info()
		if time.Now().After(c.Current().Leaf.NotAfter) {
			ev = log.Error()
		}
		logCert(ev, c.Current()).Str("file", in.ServerCertFile).Msg("serving HTTPS with the certificate from inbound__serverAuth__serverCert__certFile")
		return c, nil
	}
	hosts := []string{"localhost", "127.0.0.1", "::1", hostconfig.StandaloneModuleID}
	if h, err := os.Hostname(); err == nil && h != "" {
		hosts = append(hosts, h)
	}
	c, err := certs.SelfSigned(hosts, time.Now())
	if err != nil {
		return nil, err
	}
	log.Warn().Str("sha256Fingerprint", certs.Fingerprint(c.Current())).Strs("hosts", hosts).
		Msg("serving HTTPS with a self-signed certificate generated at start: clients must pin this fingerprint or skip verification (curl -k); set inbound__serverAuth__serverCert__certFile and __keyFile to use your own")
	return c, nil
}

// logCert adds a certificate's identifying fields to ev.
func logCert(ev *zerolog.Event, c *tls.Certificate) *zerolog.Event {
	return ev.Str("subject", c.Leaf.Subject.CommonName).Time("notAfter", c.Leaf.NotAfter).Str("sha256Fingerprint", certs.Fingerprint(c))
}
