package api

import "net/http"

// health answers 200 "OK" while the process serves requests (liveness; also
// cloud Event Grid's /api/health route).
func (s *Server) health(w http.ResponseWriter, _ *http.Request, _ params) error {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte("OK"))
	return nil
}

// readiness answers 200 once the module accepts events and 503 while it starts
// or drains.
func (s *Server) readiness(w http.ResponseWriter, _ *http.Request, _ params) error {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if !s.ready.Load() {
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("not ready"))
		return nil
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte("ready"))
	return nil
}
