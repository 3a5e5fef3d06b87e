package main

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"strconv"
)

// errClosed is what a listener returns after a graceful stop.
var errClosed = http.ErrServerClosed

// listen opens the listeners the TLS policy allows: HTTPS on inbound__httpsPort
// (strict, enabled) and HTTP on inbound__httpPort (enabled, disabled).
func (m *module) listen() error {
	in := m.cfg.Inbound
	if in.ServeHTTPS() {
		if err := m.start("https", in.HTTPSPort, m.tls); err != nil {
			return err
		}
	}
	if in.ServeHTTP() {
		if err := m.start("http", in.HTTPPort, nil); err != nil {
			return err
		}
	}
	return nil
}

func (m *module) start(proto string, port int, tlsCfg *tls.Config) error {
	addr := net.JoinHostPort(m.cfg.Inbound.BindAddress, strconv.Itoa(port))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := m.api.NewHTTPServer(tlsCfg)
	m.servers = append(m.servers, srv)
	if tlsCfg != nil {
		ln = tls.NewListener(ln, tlsCfg)
	}
	m.addrs = append(m.addrs, ln.Addr().String())
	m.log.Info().Str("protocol", proto).Str("address", ln.Addr().String()).Msg("listening")
	go func() {
		err := srv.Serve(ln)
		if !errors.Is(err, http.ErrServerClosed) {
			m.serveErrs <- err
		}
	}()
	return nil
}

// closeListeners stops accepting, lets in-flight requests finish until ctx ends,
// then closes what is left.
func (m *module) closeListeners(ctx context.Context) {
	for _, s := range m.servers {
		s.SetKeepAlivesEnabled(false)
		if err := s.Shutdown(ctx); err != nil {
			_ = s.Close()
		}
	}
}
