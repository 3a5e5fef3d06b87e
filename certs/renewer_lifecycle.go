package certs

import (
	"context"
	"fmt"
	"time"

	"github.com/edgegrid/edgegrid/workload"
)

// Start obtains the first certificate within ctx and schedules its renewal.
// It fails when that certificate cannot be obtained; the caller decides
// whether the module can run without it.
func (r *Renewer) Start(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, r.o.Timeout)
	defer cancel()
	c, err := r.o.Issue(ctx)
	if err != nil {
		return fmt.Errorf("%s: %w", r.o.Name, err)
	}
	now := r.o.Clock.Now()
	h := r.install(c, now)
	r.log.Info().Str("subject", h.cert.Leaf.Subject.CommonName).Str("serial", h.cert.Leaf.SerialNumber.Text(16)).
		Time("notAfter", h.notAfter).Time("renewAt", now.Add(renewDelay(h.start, h.notAfter, now))).Msg("certificate obtained from the IoT Edge workload API")
	r.schedule(renewDelay(h.start, h.notAfter, now))
	return nil
}

// Stop cancels a renewal in progress and any scheduled one, and waits for
// it. Idempotent; the current certificate stays available.
func (r *Renewer) Stop() {
	r.mu.Lock()
	if !r.stopped {
		r.stopped = true
		r.cancel()
		if r.stopTimer != nil && r.stopTimer() {
			r.wg.Done() // the timer will not run its function
		}
	}
	r.mu.Unlock()
	r.wg.Wait()
}

// schedule arms the timer for the next renewal unless stopped.
func (r *Renewer) schedule(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return
	}
	r.wg.Add(1)
	r.stopTimer = r.o.Clock.AfterFunc(d, func() {
		defer r.wg.Done()
		r.renew()
	})
}

// install makes c the certificate served from now on.
func (r *Renewer) install(c *workload.Certificate, now time.Time) *held {
	cert := c.TLS
	h := &held{cert: &cert, start: now, notAfter: c.Expiration}
	if nb := cert.Leaf.NotBefore; nb.After(now) {
		h.start = nb
	}
	r.cur.Store(h)
	r.mu.Lock()
	r.failures, r.expired = 0, false
	r.mu.Unlock()
	return h
}
