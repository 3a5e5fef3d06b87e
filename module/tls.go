package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"math/big"
	"net"
	"os"
	"time"

	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/hostconfig"
)

// serverTLS builds the HTTPS listener's TLS configuration: TLS 1.2 minimum and
// the server certificate.
func serverTLS(cfg *hostconfig.Config, log zerolog.Logger) (*tls.Config, error) {
	cert, err := selfSigned()
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(cert.Certificate[0])
	log.Warn().Str("sha256Fingerprint", hex.EncodeToString(sum[:])).
		Msg("serving HTTPS with a self-signed certificate generated at start; clients must skip verification (curl -k) or pin this fingerprint")
	return &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{cert}}, nil
}

// selfSigned makes an ECDSA P-256 certificate for localhost, the loopback
// addresses and the host name, valid for a year.
func selfSigned() (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "edgegrid"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(365 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     []string{"localhost", "eventgridmodule"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	if h, err := os.Hostname(); err == nil && h != "" {
		tmpl.DNSNames = append(tmpl.DNSNames, h)
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}
