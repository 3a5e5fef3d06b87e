package certs

import (
	"context"
	"time"
)

// renew runs on the timer: it obtains a new certificate and installs it, or
// keeps the current one and retries later.
func (r *Renewer) renew() {
	ctx, cancel := context.WithTimeout(r.ctx, r.o.Timeout)
	defer cancel()
	c, err := r.o.Issue(ctx)
	if r.ctx.Err() != nil {
		return // stopping
	}
	now := r.o.Clock.Now()
	if err != nil {
		r.failed(err, now)
		return
	}
	old := r.Current()
	h := r.install(c, now)
	d := renewDelay(h.start, h.notAfter, now)
	r.log.Info().Str("serial", h.cert.Leaf.SerialNumber.Text(16)).Str("previousSerial", old.Leaf.SerialNumber.Text(16)).
		Time("notAfter", h.notAfter).Time("renewAt", now.Add(d)).Msg("certificate renewed; new connections get the new one")
	if r.o.OnRenew != nil {
		if err := r.o.OnRenew(ctx); err != nil {
			r.log.Warn().Err(err).Msg("refreshing after the certificate renewal failed; keeping what was there")
		}
	}
	r.schedule(d)
}

// failed logs a failed renewal and schedules the next attempt. Each failure
// is a warning; when the held certificate has expired the first time, it is
// an error, since clients now refuse the certificate still being served.
func (r *Renewer) failed(err error, now time.Time) {
	h := r.cur.Load()
	r.mu.Lock()
	r.failures++
	n := r.failures
	report := !r.expired && !now.Before(h.notAfter)
	r.expired = r.expired || report
	r.mu.Unlock()
	wait := retryDelay(n)
	if report {
		r.log.Error().Err(err).Int("attempt", n).Time("expiredAt", h.notAfter).Dur("retryIn", wait).
			Msg("certificate expired and could not be renewed; still serving the expired one, which clients will refuse")
	} else {
		r.log.Warn().Err(err).Int("attempt", n).Time("notAfter", h.notAfter).Dur("retryIn", wait).
			Msg("could not renew the certificate; keeping the current one")
	}
	r.schedule(wait)
}
