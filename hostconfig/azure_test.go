package hostconfig_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/hostconfig"
)

const (
	tenant = "AZURE_TENANT_ID=72f988bf-86f1-41af-91ab-2d7cd011db47"
	client = "AZURE_CLIENT_ID=0d3a7b6e-1111-2222-3333-444455556666"
)

// TestEntraCredentialSelection: the documented auto order, the explicit
// override in any case, and none.
func TestEntraCredentialSelection(t *testing.T) {
	tests := map[string]struct {
		env  []string
		want hostconfig.EntraCredential
	}{
		"nothing set":               {nil, hostconfig.EntraNone},
		"client id alone":           {[]string{client}, hostconfig.EntraNone},
		"secret":                    {[]string{tenant, client, "AZURE_CLIENT_SECRET=s"}, hostconfig.EntraSecret},
		"certificate":               {[]string{tenant, client, "AZURE_CLIENT_CERTIFICATE_PATH=/c.pem"}, hostconfig.EntraCertificate},
		"secret before certificate": {[]string{tenant, client, "AZURE_CLIENT_SECRET=s", "AZURE_CLIENT_CERTIFICATE_PATH=/c.pem"}, hostconfig.EntraSecret},
		"workload identity":         {[]string{tenant, client, "AZURE_FEDERATED_TOKEN_FILE=/t"}, hostconfig.EntraWorkloadIdentity},
		"certificate before workload": {[]string{tenant, client, "AZURE_CLIENT_CERTIFICATE_PATH=/c.pem", "AZURE_FEDERATED_TOKEN_FILE=/t"},
			hostconfig.EntraCertificate},
		"managed identity endpoint":  {[]string{"IDENTITY_ENDPOINT=http://127.0.0.1:40342/metadata/identity/oauth2/token"}, hostconfig.EntraManagedIdentity},
		"workload before managed":    {[]string{tenant, client, "AZURE_FEDERATED_TOKEN_FILE=/t", "IDENTITY_ENDPOINT=http://x"}, hostconfig.EntraWorkloadIdentity},
		"override to managed (IMDS)": {[]string{"outbound__eventgrid__credential=ManagedIdentity"}, hostconfig.EntraManagedIdentity},
		"override beats auto order":  {[]string{tenant, client, "AZURE_CLIENT_SECRET=s", "AZURE_CLIENT_CERTIFICATE_PATH=/c.pem", "outbound__eventgrid__credential=certificate"}, hostconfig.EntraCertificate},
		"none turns it off":          {[]string{tenant, client, "AZURE_CLIENT_SECRET=s", "outbound__eventgrid__credential=NONE"}, hostconfig.EntraNone},
		"mixed-case variable names":  {[]string{"azure_tenant_id=t", "Azure_Client_Id=c", "azure_client_secret=s"}, hostconfig.EntraSecret},
		"colon spelling of override": {[]string{"outbound:eventgrid:credential=workloadidentity", tenant, client, "AZURE_FEDERATED_TOKEN_FILE=/t"}, hostconfig.EntraWorkloadIdentity},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := mustLoad(t, tc.env...).EntraCredential(); got != tc.want {
				t.Fatalf("EntraCredential() = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestEntraCredentialMissingVariables: a chosen credential without its
// variables stops the module, naming every missing one and why it is needed.
func TestEntraCredentialMissingVariables(t *testing.T) {
	tests := map[string]struct {
		env           []string
		name, because string
	}{
		"secret without tenant and client": {[]string{"AZURE_CLIENT_SECRET=s"}, "AZURE_TENANT_ID, AZURE_CLIENT_ID", "AZURE_CLIENT_SECRET is set"},
		"forced secret without secret":     {[]string{tenant, client, "outbound__eventgrid__credential=secret"}, "AZURE_CLIENT_SECRET", "outbound__eventgrid__credential=secret"},
		"certificate without client":       {[]string{tenant, "AZURE_CLIENT_CERTIFICATE_PATH=/c.pem"}, "AZURE_CLIENT_ID", "AZURE_CLIENT_CERTIFICATE_PATH is set"},
		"forced certificate without file":  {[]string{tenant, client, "outbound__eventgrid__credential=certificate"}, "AZURE_CLIENT_CERTIFICATE_PATH", "credential=certificate"},
		"workload without tenant":          {[]string{client, "AZURE_FEDERATED_TOKEN_FILE=/t"}, "AZURE_TENANT_ID", "AZURE_FEDERATED_TOKEN_FILE is set"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			e := loadErr(t, tc.env...)
			if len(e.Problems) != 1 || e.Problems[0].Name != tc.name || !strings.Contains(e.Problems[0].Reason, tc.because) {
				t.Fatalf("problems %q, want %s because %q", e, tc.name, tc.because)
			}
		})
	}
}

func TestEntraSettingsValidated(t *testing.T) {
	e := loadErr(t, "AZURE_AUTHORITY_HOST=http://login.example", "outbound__eventgrid__credential=kerberos",
		"AZURE_CLIENT_SEND_CERTIFICATE_CHAIN=maybe")
	want := []string{"AZURE_AUTHORITY_HOST", "AZURE_CLIENT_SEND_CERTIFICATE_CHAIN", "outbound__eventgrid__credential"}
	if got := problemNames(e); !slices.Equal(got, want) {
		t.Fatalf("problems %q, want %q", got, want)
	}
	for _, ok := range []string{"https://login.microsoftonline.us/", "https://127.0.0.1:8443", "HTTPS://login.chinacloudapi.cn"} {
		if c := mustLoad(t, "AZURE_AUTHORITY_HOST="+ok); c.Azure.AuthorityHost != ok {
			t.Errorf("authority %q read as %q", ok, c.Azure.AuthorityHost)
		}
	}
	if c := mustLoad(t, "AZURE_CLIENT_SEND_CERTIFICATE_CHAIN=1"); !c.Azure.SendCertificateChain {
		t.Error("AZURE_CLIENT_SEND_CERTIFICATE_CHAIN=1 (the Azure SDK's spelling) not read as true")
	}
}

// TestEntraSecretsNeverShown: the client secret and certificate password are
// masked in Summary and in errors.
func TestEntraSecretsNeverShown(t *testing.T) {
	c := mustLoad(t, tenant, client, "AZURE_CLIENT_SECRET=TOPSECRET", "AZURE_CLIENT_CERTIFICATE_PASSWORD=PFXPASS")
	sum := c.Summary()
	if sum["AZURE_CLIENT_SECRET"] != "***" || sum["AZURE_CLIENT_CERTIFICATE_PASSWORD"] != "***" || sum["AZURE_CLIENT_ID"] == "" {
		t.Fatalf("summary %v", sum)
	}
	_, err := hostconfig.Load([]string{"AZURE_CLIENT_SECRET=TOPSECRET", "AZURE_AUTHORITY_HOST=ftp://x"})
	if err == nil || strings.Contains(err.Error(), "TOPSECRET") {
		t.Fatalf("error %v", err)
	}
}

// TestEntraIgnoredVariablesWarned: credential variables that lose to another
// one are named in a warning, without their values.
func TestEntraIgnoredVariablesWarned(t *testing.T) {
	c := mustLoad(t, tenant, client, "AZURE_CLIENT_SECRET=TOPSECRET", "AZURE_CLIENT_CERTIFICATE_PATH=/c.pem")
	if !warningsMention(c.Warnings, "AZURE_CLIENT_CERTIFICATE_PATH ignored", "secret") {
		t.Fatalf("warnings %q", c.Warnings)
	}
	if strings.Contains(strings.Join(c.Warnings, " "), "TOPSECRET") {
		t.Fatal("a warning shows the secret")
	}
	c = mustLoad(t, tenant, client, "AZURE_CLIENT_SECRET=s", "outbound__eventgrid__credential=none")
	if !warningsMention(c.Warnings, "AZURE_CLIENT_SECRET ignored") {
		t.Fatalf("warnings %q", c.Warnings)
	}
	if c := mustLoad(t, tenant, client, "AZURE_CLIENT_SECRET=s"); len(c.Warnings) != 0 {
		t.Fatalf("unexpected warnings %q", c.Warnings)
	}
}
