package certs

import (
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"strings"
)

// Static serves one certificate for the life of the process: loaded from
// files or generated at start.
type Static struct{ cert *tls.Certificate }

// NewStatic holds cert. Its Leaf is parsed here when absent.
func NewStatic(cert tls.Certificate) (*Static, error) {
	if len(cert.Certificate) == 0 {
		return nil, fmt.Errorf("certs: empty certificate")
	}
	if cert.Leaf == nil {
		leaf, err := x509.ParseCertificate(cert.Certificate[0])
		if err != nil {
			return nil, fmt.Errorf("certs: %w", err)
		}
		cert.Leaf = leaf
	}
	return &Static{cert: &cert}, nil
}

// Current returns the certificate.
func (s *Static) Current() *tls.Certificate { return s.cert }

// GetCertificate serves the certificate to TLS clients.
func (s *Static) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) { return s.cert, nil }

// GetClientCertificate presents the certificate to TLS servers that ask.
func (s *Static) GetClientCertificate(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
	return s.cert, nil
}

// LoadFiles reads a PEM certificate chain and its PEM private key; errors
// name the files.
func LoadFiles(certFile, keyFile string) (*Static, error) {
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("certs: certificate %s with key %s: %w", certFile, keyFile, err)
	}
	return NewStatic(pair)
}

// Fingerprint is the SHA-256 of the leaf's DER in the form openssl prints
// (`openssl x509 -noout -fingerprint -sha256`): upper-case hex pairs
// separated by colons.
func Fingerprint(cert *tls.Certificate) string {
	sum := sha256.Sum256(cert.Certificate[0])
	h := strings.ToUpper(hex.EncodeToString(sum[:]))
	var b strings.Builder
	for i := 0; i < len(h); i += 2 {
		if i > 0 {
			b.WriteByte(':')
		}
		b.WriteString(h[i : i+2])
	}
	return b.String()
}
