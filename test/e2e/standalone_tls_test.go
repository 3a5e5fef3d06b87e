package e2e

import (
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/internal/testenv"
)

// TestStandaloneSelfSigned: without IoT Edge and without files, HTTPS serves
// a generated certificate whose fingerprint the log states.
func TestStandaloneSelfSigned(t *testing.T) {
	t.Parallel()
	m := startModule(t)
	lines := m.LogLines("serving HTTPS with a self-signed certificate generated at start: clients must pin this fingerprint or skip verification (curl -k); set inbound__serverAuth__serverCert__certFile and __keyFile to use your own")
	if len(lines) != 1 || lines[0]["level"] != "warn" {
		t.Fatalf("warning %v", lines)
	}
	conn, err := tls.Dial("tcp", strings.TrimPrefix(m.HTTPSURL, "https://"), &tls.Config{InsecureSkipVerify: true}) //nolint:gosec // pinned below
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	sum := sha256.Sum256(conn.ConnectionState().PeerCertificates[0].Raw)
	logged, _ := lines[0]["sha256Fingerprint"].(string)
	if strings.ReplaceAll(logged, ":", "") != strings.ToUpper(hex.EncodeToString(sum[:])) {
		t.Fatalf("logged fingerprint %s does not match the served certificate", logged)
	}
}

// TestStandaloneCertificateFiles: the HTTPS certificate comes from the files
// named by the environment, and verifies against its CA.
func TestStandaloneCertificateFiles(t *testing.T) {
	t.Parallel()
	ca := testenv.NewCA(t, "Operator CA")
	_, certPEM, keyPEM := ca.Issue(t, testenv.LeafOptions{CommonName: "gateway", Hosts: []string{"127.0.0.1", "localhost"}})
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if os.WriteFile(certFile, certPEM, 0o600) != nil || os.WriteFile(keyFile, keyPEM, 0o600) != nil {
		t.Fatal("writing the files")
	}
	m := startModule(t, "inbound__serverAuth__serverCert__certFile="+certFile, "inbound__serverAuth__serverCert__keyFile="+keyFile)
	conn, err := tls.Dial("tcp", strings.TrimPrefix(m.HTTPSURL, "https://"), testenv.ClientTLS(ca))
	if err != nil {
		t.Fatalf("the served certificate does not verify against its CA: %v", err)
	}
	defer conn.Close()
	if cn := conn.ConnectionState().PeerCertificates[0].Subject.CommonName; cn != "gateway" {
		t.Fatalf("served %q", cn)
	}
}
