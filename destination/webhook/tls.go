package webhook

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"time"
)

// tlsHandshakeTimeout bounds the TLS handshake with a subscriber.
const tlsHandshakeTimeout = 10 * time.Second

// dialTLS dials a subscriber and runs the TLS handshake itself, so certificate
// checks know the host that was dialled (tls.ConnectionState has no server name
// when the host is an IP address, which is common on a gateway).
func (o *Options) dialTLS(d *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	base := o.tlsConfig()
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		cfg := base.Clone()
		cfg.ServerName = host
		if cfg.VerifyConnection != nil {
			cfg.VerifyConnection = func(cs tls.ConnectionState) error { return o.verify(cs, host) }
		}
		raw, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		hctx, cancel := context.WithTimeout(ctx, tlsHandshakeTimeout)
		defer cancel()
		conn := tls.Client(raw, cfg)
		if err := conn.HandshakeContext(hctx); err != nil {
			_ = raw.Close()
			return nil, err
		}
		return conn, nil
	}
}

// tlsConfig builds the client TLS configuration for subscriber connections.
func (o *Options) tlsConfig() *tls.Config {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, GetClientCertificate: o.clientCert()}
	switch {
	case o.SkipServerCertValidation:
		cfg.InsecureSkipVerify = true // the operator asked for it: outbound__webhook__skipServerCertValidation
	default:
		// Verification is done in VerifyConnection so roots can change at run time
		// (trust bundle renewal) and unknown CAs can be allowed.
		cfg.InsecureSkipVerify = true
		cfg.VerifyConnection = func(cs tls.ConnectionState) error { return o.verify(cs, cs.ServerName) }
	}
	return cfg
}

func (o *Options) clientCert() func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
	if o.ClientCertificate == nil {
		return nil
	}
	return o.ClientCertificate
}

// verify checks the subscriber's chain against the system roots plus RootCAs.
// With AllowUnknownCA an unknown authority is tolerated, but the leaf must still
// be in its validity period and name the server.
func (o *Options) verify(cs tls.ConnectionState, host string) error {
	if len(cs.PeerCertificates) == 0 {
		return errors.New("webhook: subscriber presented no certificate")
	}
	leaf := cs.PeerCertificates[0]
	inter := x509.NewCertPool()
	for _, c := range cs.PeerCertificates[1:] {
		inter.AddCert(c)
	}
	err := o.verifyChain(leaf, inter, host)
	var ua x509.UnknownAuthorityError
	if err == nil || !o.AllowUnknownCA || !errors.As(err, &ua) {
		return err
	}
	now := time.Now()
	if now.Before(leaf.NotBefore) || now.After(leaf.NotAfter) {
		return x509.CertificateInvalidError{Cert: leaf, Reason: x509.Expired}
	}
	return leaf.VerifyHostname(host)
}

// verifyChain accepts a chain to a system root or to one of RootCAs (the IoT
// Edge trust bundle). CertPool has no union, so each pool is tried in turn.
func (o *Options) verifyChain(leaf *x509.Certificate, inter *x509.CertPool, name string) error {
	vo := x509.VerifyOptions{DNSName: name, Intermediates: inter}
	if o.RootCAs != nil {
		if extra := o.RootCAs(); extra != nil {
			vo.Roots = extra
			if _, err := leaf.Verify(vo); err == nil {
				return nil
			}
		}
	}
	vo.Roots = nil // system roots
	_, err := leaf.Verify(vo)
	return err
}
