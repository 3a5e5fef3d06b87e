package eventgrid_test

import (
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/destination/eventgrid"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

// TestNewCredentialErrors: a credential that cannot be built names the
// variable to fix.
func TestNewCredentialErrors(t *testing.T) {
	junk := testenv.WriteFile(t, "junk.pem", []byte("not a certificate"))
	certOnly := testenv.WriteFile(t, "cert.pem", []byte(strings.Split(string(testenv.NewAppCertificate(t, "a").PEM), "-----BEGIN PRIVATE KEY-----")[0]))
	tests := map[string]struct {
		cc   eventgrid.CredentialConfig
		want string
	}{
		"bad tenant id": {eventgrid.CredentialConfig{Kind: eventgrid.CredentialSecret, TenantID: "not a tenant!", ClientID: "c", ClientSecret: "s"},
			"AZURE_TENANT_ID"},
		"missing certificate file": {eventgrid.CredentialConfig{Kind: eventgrid.CredentialCertificate, TenantID: "t", ClientID: "c", CertificatePath: "/nonexistent/c.pem"},
			`AZURE_CLIENT_CERTIFICATE_PATH="/nonexistent/c.pem" cannot be read`},
		"not a certificate": {eventgrid.CredentialConfig{Kind: eventgrid.CredentialCertificate, TenantID: "t", ClientID: "c", CertificatePath: junk},
			"is not a PEM or PKCS#12 certificate with its private key"},
		"certificate without key": {eventgrid.CredentialConfig{Kind: eventgrid.CredentialCertificate, TenantID: "t", ClientID: "c", CertificatePath: certOnly},
			"AZURE_CLIENT_CERTIFICATE_PASSWORD"},
		"missing federated token file": {eventgrid.CredentialConfig{Kind: eventgrid.CredentialWorkloadIdentity, TenantID: "t", ClientID: "c", FederatedTokenFile: "/nonexistent/token"},
			`AZURE_FEDERATED_TOKEN_FILE="/nonexistent/token" cannot be read`},
		"unknown kind": {eventgrid.CredentialConfig{Kind: "kerberos"}, "outbound__eventgrid__credential"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := eventgrid.NewCredential(tc.cc)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestCertificateCredential: a PEM certificate file with its key signs a
// client assertion the local Entra ID verifies.
func TestCertificateCredential(t *testing.T) {
	tokens := testenv.NewTokens()
	entra := testenv.NewEntra(t, testenv.NewCA(t, "entra"), tokens, "tenant1", "app1")
	app := testenv.NewAppCertificate(t, "app1")
	entra.SetCertificate(app.Cert)
	r := credentialRig(t, tokens, eventgrid.CredentialConfig{Kind: eventgrid.CredentialCertificate, TenantID: "tenant1", ClientID: "app1",
		CertificatePath: testenv.WriteFile(t, "app.pem", app.PEM), AuthorityHost: entra.Authority, DisableInstanceDiscovery: true, Transport: entra.Client()})
	if res := deliver(r.sender(t, nil), eventschema.EventGrid, egEvents(t, 1, 1)); res.Outcome != destination.Delivered {
		t.Fatalf("result %+v", res)
	}
	if q := r.cloud.Requests()[0]; q.Token.Via != "certificate" {
		t.Fatalf("token via %q", q.Token.Via)
	}
}

// TestWorkloadIdentityCredential: the federated token file's content is the
// client assertion.
func TestWorkloadIdentityCredential(t *testing.T) {
	tokens := testenv.NewTokens()
	entra := testenv.NewEntra(t, testenv.NewCA(t, "entra"), tokens, "tenant1", "app1")
	entra.SetFederatedToken("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQ6ZWRnZTplZ3JpZCJ9.c2ln")
	file := testenv.WriteFile(t, "token", []byte("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQ6ZWRnZTplZ3JpZCJ9.c2ln"))
	r := credentialRig(t, tokens, eventgrid.CredentialConfig{Kind: eventgrid.CredentialWorkloadIdentity, TenantID: "tenant1", ClientID: "app1",
		FederatedTokenFile: file, AuthorityHost: entra.Authority, DisableInstanceDiscovery: true, Transport: entra.Client()})
	if res := deliver(r.sender(t, nil), eventschema.EventGrid, egEvents(t, 1, 1)); res.Outcome != destination.Delivered {
		t.Fatalf("result %+v", res)
	}
	if q := r.cloud.Requests()[0]; q.Token.Via != "federated" {
		t.Fatalf("token via %q", q.Token.Via)
	}
}

// TestManagedIdentityCredential: with IDENTITY_ENDPOINT and IDENTITY_HEADER
// set (App Service protocol), a user-assigned identity's token is requested
// for the Event Grid resource and sent. The Azure SDK reads those variables
// from the process environment, so this test sets them.
func TestManagedIdentityCredential(t *testing.T) {
	tokens := testenv.NewTokens()
	mi := testenv.NewManagedIdentity(t, tokens)
	mi.SetLifetime(2 * time.Minute) // short: MSAL's process-wide managed identity cache must not serve other tests
	for _, kv := range mi.Env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	r := credentialRig(t, tokens, eventgrid.CredentialConfig{Kind: eventgrid.CredentialManagedIdentity, ClientID: "mi-client-1"})
	if res := deliver(r.sender(t, nil), eventschema.EventGrid, egEvents(t, 1, 1)); res.Outcome != destination.Delivered {
		t.Fatalf("result %+v", res)
	}
	q := r.cloud.Requests()[0]
	got := mi.Requests()[0].URL.Query()
	if q.Token.Via != "managedIdentity" || q.Token.ClientID != "mi-client-1" || got.Get("resource") != testenv.EventGridAudience {
		t.Fatalf("token %+v from request %v", q.Token, got)
	}
}
