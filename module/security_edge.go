package main

import (
	"context"
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/certs"
	"github.com/edgegrid/edgegrid/hostconfig"
	"github.com/edgegrid/edgegrid/workload"
)

// Lifetimes asked of the workload API; the runtime decides the real ones.
// They are the values of the original's SDK samples.
const (
	serverCertWish   = 90 * 24 * time.Hour
	identityCertWish = 7 * 24 * time.Hour
	// maxCommonName is the X.509 upper bound on a common name.
	maxCommonName = 64
)

// fromWorkload obtains the trust bundle, the server certificate (when HTTPS
// is served) and the identity certificate (when presented to subscribers),
// and starts renewing the certificates.
func (s *security) fromWorkload(ctx context.Context, cfg *hostconfig.Config, log zerolog.Logger, sm seams) error {
	e := cfg.Edge
	wl, err := workload.New(workload.Options{URI: e.WorkloadURI, ModuleID: e.ModuleID, GenerationID: e.GenerationID,
		APIVersion: e.APIVersion, Backoff: sm.workloadBackoff})
	if err != nil {
		return err
	}
	unreachable := func(what string, err error) error {
		return fmt.Errorf("IoT Edge mode: could not get the %s from the workload API at %s (is the module running under IoT Edge, with the workload socket mounted?): %w",
			what, e.WorkloadURI, err)
	}
	s.bundle = certs.NewBundle(wl.TrustBundle)
	if err := s.bundle.Refresh(ctx); err != nil {
		return unreachable("trust bundle", err)
	}
	now := time.Now
	if sm.clock != nil {
		now = sm.clock.Now
	}
	if cfg.Inbound.ServeHTTPS() {
		cn := serverCommonName(e)
		r, err := s.renew(ctx, "server certificate", log, sm, func(ctx context.Context) (*workload.Certificate, error) {
			return wl.ServerCert(ctx, cn, now().Add(serverCertWish))
		})
		if err != nil {
			return unreachable("server certificate", err)
		}
		s.server = r
	}
	if cfg.Outbound.ClientCertEnabled {
		r, err := s.renew(ctx, "identity certificate", log, sm, func(ctx context.Context) (*workload.Certificate, error) {
			return wl.IdentityCert(ctx, now().Add(identityCertWish))
		})
		if err != nil {
			return unreachable("identity certificate", err)
		}
		s.identity = r
	}
	return nil
}

// renew starts a Renewer that refreshes the trust bundle with each renewal.
func (s *security) renew(ctx context.Context, name string, log zerolog.Logger, sm seams, issue certs.Issue) (*certs.Renewer, error) {
	r, err := certs.NewRenewer(certs.RenewerOptions{Name: name, Issue: issue, Clock: sm.clock, Logger: log, OnRenew: s.bundle.Refresh})
	if err != nil {
		return nil, err
	}
	if err := r.Start(ctx); err != nil {
		return nil, err
	}
	s.renewers = append(s.renewers, r)
	return r, nil
}

// serverCommonName is IOTEDGE_GATEWAYHOSTNAME when it fits an X.509 common
// name, else the module id. The runtime adds the module id as a DNS name
// either way, so other modules reach us as https://<module id>:4438.
func serverCommonName(e hostconfig.Edge) string {
	if h := e.GatewayHostname; h != "" && len(h) <= maxCommonName {
		return h
	}
	return e.ModuleID
}
