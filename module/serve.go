package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/hostconfig"
	"github.com/edgegrid/edgegrid/metrics"
)

// listenerShutdownTimeout bounds how long in-flight API requests may finish
// after SIGTERM before the listeners are closed hard.
const listenerShutdownTimeout = 3 * time.Second

// serve runs the module until ctx ends, then drains in order: readiness off,
// listeners stopped, queued events delivered within the grace period (over
// edgeHub too, so its connection closes last; module inputs are refused by
// the draining broker and stay unacknowledged for edgeHub to resend), losses
// logged.
func serve(ctx context.Context, cfg *hostconfig.Config, log zerolog.Logger) error {
	for _, w := range cfg.Warnings {
		log.Warn().Msg(w)
	}
	start := time.Now()
	m, err := build(ctx, cfg, log, seams{})
	if err != nil {
		return err
	}
	if err := m.listen(); err != nil {
		m.closeListeners(context.Background())
		m.stop(context.Background())
		return err
	}
	if cfg.Metrics.ReporterType == hostconfig.ReporterConsole {
		cctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { defer close(done); metrics.Console(cctx, m.broker, log, metrics.DefaultConsoleInterval) }()
		defer func() { cancel(); <-done }()
	}
	m.api.SetReady(true)
	m.startEdgeHub()
	log.Info().Str("version", version).Str("mode", cfg.Mode().String()).Interface("config", cfg.Summary()).
		Dur("startup", time.Since(start)).Msg("edgegrid started")

	var serveErr error
	select {
	case <-ctx.Done():
		log.Info().Msg("stopping: no new requests; delivering what is queued")
	case serveErr = <-m.serveErrs:
		log.Error().Err(serveErr).Msg("a listener failed; stopping")
	}
	m.api.SetReady(false)
	lctx, cancel := context.WithTimeout(context.Background(), listenerShutdownTimeout)
	m.closeListeners(lctx)
	cancel()
	dctx, cancel := context.WithTimeout(context.Background(), cfg.Broker.ShutdownGracePeriod())
	defer cancel()
	losses := m.stop(dctx)
	total := 0
	for _, l := range losses {
		total += l.Events
	}
	log.Info().Int("lostEvents", total).Msg("edgegrid stopped")
	if serveErr != nil && !errors.Is(serveErr, errClosed) {
		return fmt.Errorf("listener: %w", serveErr)
	}
	return nil
}

// stop drains the broker until ctx ends, then closes the edgeHub connection and
// ends certificate renewal (which deliveries in the drain may still need). It
// returns the broker's losses.
func (m *module) stop(ctx context.Context) []broker.Loss {
	losses := m.broker.Shutdown(ctx)
	m.closeEdgeHub()
	m.sec.stop()
	return losses
}
