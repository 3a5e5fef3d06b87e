package workload

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"time"
)

// Certificate is an issued certificate with its key.
type Certificate struct {
	TLS        tls.Certificate // leaf first, then the chain; Leaf is parsed
	Expiration time.Time
	CertPEM    []byte
	KeyPEM     []byte
}

type certRequest struct {
	CommonName string `json:"commonName,omitempty"`
	Expiration string `json:"expiration,omitempty"`
}

type certResponse struct {
	PrivateKey struct {
		Type  string `json:"type"`
		Bytes string `json:"bytes"`
	} `json:"privateKey"`
	Certificate string `json:"certificate"`
	Expiration  string `json:"expiration"`
}

// ServerCert asks for a server certificate for commonName (the gateway host
// name; the runtime adds the module id as a DNS SAN). expiration is a wish
// older runtimes need; the runtime decides the real lifetime.
func (c *Client) ServerCert(ctx context.Context, commonName string, expiration time.Time) (*Certificate, error) {
	path := "/modules/" + url.PathEscape(c.moduleID) + "/genid/" + url.PathEscape(c.generationID) + "/certificate/server"
	var resp certResponse
	req := certRequest{CommonName: commonName, Expiration: expiration.UTC().Format(time.RFC3339)}
	if err := c.call(ctx, "POST", path, req, &resp); err != nil {
		return nil, fmt.Errorf("workload: server certificate: %w", err)
	}
	return parseCert(resp)
}

// IdentityCert asks for the module's identity (client) certificate.
func (c *Client) IdentityCert(ctx context.Context, expiration time.Time) (*Certificate, error) {
	path := "/modules/" + url.PathEscape(c.moduleID) + "/certificate/identity"
	var resp certResponse
	if err := c.call(ctx, "POST", path, certRequest{Expiration: expiration.UTC().Format(time.RFC3339)}, &resp); err != nil {
		return nil, fmt.Errorf("workload: identity certificate: %w", err)
	}
	return parseCert(resp)
}

func parseCert(r certResponse) (*Certificate, error) {
	if r.PrivateKey.Type != "" && r.PrivateKey.Type != "key" {
		return nil, fmt.Errorf("workload: private key of type %q (an HSM reference) is not supported", r.PrivateKey.Type)
	}
	pair, err := tls.X509KeyPair([]byte(r.Certificate), []byte(r.PrivateKey.Bytes))
	if err != nil {
		return nil, fmt.Errorf("workload: certificate does not parse: %w", err)
	}
	leaf, err := x509.ParseCertificate(pair.Certificate[0])
	if err != nil {
		return nil, err
	}
	pair.Leaf = leaf
	exp := leaf.NotAfter
	if t, err := time.Parse(time.RFC3339, r.Expiration); err == nil && t.Before(exp) {
		exp = t
	}
	return &Certificate{TLS: pair, Expiration: exp, CertPEM: []byte(r.Certificate), KeyPEM: []byte(r.PrivateKey.Bytes)}, nil
}

// TrustBundle returns the PEM of the CAs the device trusts and a pool of them.
func (c *Client) TrustBundle(ctx context.Context) ([]byte, *x509.CertPool, error) {
	var resp struct {
		Certificate string `json:"certificate"`
	}
	if err := c.call(ctx, "GET", "/trust-bundle", nil, &resp); err != nil {
		return nil, nil, fmt.Errorf("workload: trust bundle: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM([]byte(resp.Certificate)) {
		return nil, nil, errors.New("workload: trust bundle holds no certificate")
	}
	return []byte(resp.Certificate), pool, nil
}

// Sign returns HMAC-SHA256(module key, data), computed by the runtime.
func (c *Client) Sign(ctx context.Context, data []byte) ([]byte, error) {
	path := "/modules/" + url.PathEscape(c.moduleID) + "/genid/" + url.PathEscape(c.generationID) + "/sign"
	req := map[string]string{"keyId": "primary", "algo": "HMACSHA256", "data": base64.StdEncoding.EncodeToString(data)}
	var resp struct {
		Digest string `json:"digest"`
	}
	if err := c.call(ctx, "POST", path, req, &resp); err != nil {
		return nil, fmt.Errorf("workload: sign: %w", err)
	}
	d, err := base64.StdEncoding.DecodeString(resp.Digest)
	if err != nil {
		return nil, fmt.Errorf("workload: sign: digest is not base64: %w", err)
	}
	return d, nil
}
