package api

import (
	"log"
	"strings"

	"github.com/rs/zerolog"
)

// newStdLogger routes net/http's own messages (TLS handshake errors, bad
// requests) to the logger at debug level: they are client mistakes, frequent
// under scans, and must not flood the module's log.
func newStdLogger(l zerolog.Logger) *log.Logger {
	return log.New(stdWriter{l}, "", 0)
}

type stdWriter struct{ l zerolog.Logger }

func (w stdWriter) Write(p []byte) (int, error) {
	w.l.Debug().Str("source", "net/http").Msg(strings.TrimSpace(string(p)))
	return len(p), nil
}
