package certs_test

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/certs"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

func TestSelfSigned(t *testing.T) {
	now := time.Now()
	s, err := certs.SelfSigned([]string{"localhost", "127.0.0.1", "::1", "gw"}, now)
	if err != nil {
		t.Fatal(err)
	}
	leaf := s.Current().Leaf
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	for _, host := range []string{"localhost", "127.0.0.1", "::1", "gw"} {
		if _, err := leaf.Verify(x509.VerifyOptions{DNSName: host, Roots: pool}); err != nil {
			t.Errorf("%s: %v", host, err)
		}
	}
	if leaf.NotAfter.Sub(now) < 364*24*time.Hour {
		t.Errorf("valid until %v", leaf.NotAfter)
	}
}

func TestFingerprint(t *testing.T) {
	s, err := certs.SelfSigned([]string{"localhost"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(s.Current().Certificate[0])
	fp := certs.Fingerprint(s.Current())
	if strings.ReplaceAll(fp, ":", "") != strings.ToUpper(hex.EncodeToString(sum[:])) || len(fp) != 32*3-1 {
		t.Fatalf("fingerprint %q", fp)
	}
}

func TestLoadFiles(t *testing.T) {
	ca := testenv.NewCA(t, "Files CA")
	other := testenv.NewCA(t, "Other CA")
	_, certPEM, keyPEM := ca.Issue(t, testenv.LeafOptions{CommonName: "gw", Hosts: []string{"gw"}})
	_, _, otherKey := other.Issue(t, testenv.LeafOptions{CommonName: "x"})
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cert, key, wrongKey := write("c.pem", certPEM), write("k.pem", keyPEM), write("o.pem", otherKey)
	s, err := certs.LoadFiles(cert, key)
	if err != nil {
		t.Fatal(err)
	}
	if s.Current().Leaf.Subject.CommonName != "gw" || len(s.Current().Certificate) != 2 {
		t.Fatalf("loaded %v with %d certificates, want the leaf and its CA", s.Current().Leaf.Subject, len(s.Current().Certificate))
	}
	for name, files := range map[string][2]string{
		"missing key":    {cert, filepath.Join(dir, "none.pem")},
		"mismatched key": {cert, wrongKey},
		"key as cert":    {key, key},
	} {
		if _, err := certs.LoadFiles(files[0], files[1]); err == nil || !strings.Contains(err.Error(), files[0]) {
			t.Errorf("%s: %v, want an error naming the files", name, err)
		}
	}
}

func TestBundle(t *testing.T) {
	var none certs.Bundle
	if none.Pool() != nil || none.Refresh(context.Background()) != nil {
		t.Fatal("the zero Bundle must hold nothing and refresh to nothing")
	}
	var nilBundle *certs.Bundle
	if nilBundle.Pool() != nil {
		t.Fatal("a nil Bundle must hold nothing")
	}
	ca := testenv.NewCA(t, "Bundle CA")
	fail := false
	b := certs.NewBundle(func(context.Context) ([]byte, *x509.CertPool, error) {
		if fail {
			return nil, nil, errors.New("unreachable")
		}
		return ca.CertPEM, ca.Pool(), nil
	})
	if b.Pool() != nil {
		t.Fatal("pool before the first refresh")
	}
	if err := b.Refresh(context.Background()); err != nil || b.Pool() == nil {
		t.Fatalf("refresh: %v", err)
	}
	kept := b.Pool()
	fail = true
	if err := b.Refresh(context.Background()); err == nil || b.Pool() != kept {
		t.Fatal("a failed refresh must report and keep the previous bundle")
	}
}
