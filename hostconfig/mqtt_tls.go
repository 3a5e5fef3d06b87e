package hostconfig

import (
	"crypto/tls"
	"crypto/x509"
	"net/url"
	"os"
)

// TLSConfig returns the TLS configuration for an ssl:// mqtt__url: TLS
// 1.2 or later, the broker's host name checked against its certificate,
// RootCAs from mqtt__caFile (the system's roots when unset) and the client
// certificate from mqtt__certFile and mqtt__keyFile when set. It returns nil,
// nil for a plain tcp:// URL. Errors are *Error naming the variable.
func (m MQTT) TLSConfig() (*tls.Config, error) {
	cfg, probs := m.tlsConfig()
	if len(probs) > 0 {
		return nil, newError(probs)
	}
	return cfg, nil
}

// tlsConfig builds the TLS configuration and reports problems with the files.
func (m MQTT) tlsConfig() (*tls.Config, []Problem) {
	if !m.UsesTLS() {
		return nil, nil
	}
	u, err := url.Parse(m.URL)
	if err != nil {
		return nil, nil // reported by validateMQTT
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: u.Hostname()}
	var probs []Problem
	if m.CAFile != "" {
		pool, reason := loadCAFile(m.CAFile)
		if reason != "" {
			probs = append(probs, Problem{Name: "mqtt__caFile", Value: m.CAFile, Reason: reason})
		}
		cfg.RootCAs = pool
	}
	if m.CertFile != "" && m.KeyFile != "" {
		cert, err := tls.LoadX509KeyPair(m.CertFile, m.KeyFile)
		if err != nil {
			probs = append(probs, Problem{Name: "mqtt__certFile, mqtt__keyFile",
				Reason: "cannot load the client certificate and key: " + err.Error()})
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg, probs
}

// loadCAFile reads PEM certificates into a pool; reason is "" on success.
func loadCAFile(path string) (*x509.CertPool, string) {
	pem, err := os.ReadFile(path)
	if err != nil {
		return nil, "cannot be read: " + err.Error()
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, "holds no PEM certificate"
	}
	return pool, ""
}
