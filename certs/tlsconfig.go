package certs

import "crypto/tls"

// cipherSuites are the TLS 1.2 suites the listener accepts: ECDHE key
// exchange (forward secrecy) with AEAD ciphers only, for ECDSA and RSA keys
// (the workload API issues RSA keys; the self-signed certificate is ECDSA).
// TLS 1.3 suites are not configurable in Go and are all AEAD.
var cipherSuites = []uint16{
	tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
	tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
	tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
	tls.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
	tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
	tls.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
}

// curves are the key-exchange groups, in preference order.
var curves = []tls.CurveID{tls.X25519, tls.CurveP256}

// ServerConfig is the HTTPS listener's TLS configuration: TLS 1.2 or later,
// the suites and curves above, and the certificate getCert returns at each
// handshake (so renewals apply to new connections without a restart).
//
// With requestClientCert the server asks for a client certificate but does
// not demand or verify one at the TLS layer: the API's authenticator checks
// it per request, so a missing or refused certificate gets the API's 401
// error body rather than a TLS alert the client cannot explain. No list of
// acceptable CAs is sent (ClientCAs stays nil), because clients, Go's among
// them, withhold a certificate that matches none of the listed CAs, which
// would defeat inbound__clientAuth__clientCert__allowUnknownCA.
func ServerConfig(getCert func(*tls.ClientHelloInfo) (*tls.Certificate, error), requestClientCert bool) *tls.Config {
	cfg := &tls.Config{
		MinVersion:       tls.VersionTLS12,
		CipherSuites:     cipherSuites,
		CurvePreferences: curves,
		GetCertificate:   getCert,
		ClientAuth:       tls.NoClientCert,
	}
	if requestClientCert {
		cfg.ClientAuth = tls.RequestClientCert
	}
	return cfg
}
