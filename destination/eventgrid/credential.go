package eventgrid

import (
	"fmt"
	"os"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
)

// Scope is the Entra ID scope of cloud Event Grid's data plane, in every
// Azure cloud.
const Scope = "https://eventgrid.azure.net/.default"

// CredentialKind names an Entra ID credential (the values of
// outbound__eventgrid__credential other than auto and none).
type CredentialKind string

// The credentials edgegrid builds. DefaultAzureCredential is deliberately not
// offered: it tries developer tools and makes the choice unpredictable.
const (
	CredentialSecret           CredentialKind = "secret"
	CredentialCertificate      CredentialKind = "certificate"
	CredentialWorkloadIdentity CredentialKind = "workloadIdentity"
	CredentialManagedIdentity  CredentialKind = "managedIdentity"
)

// CredentialConfig is what NewCredential needs: the AZURE_* values.
type CredentialConfig struct {
	Kind CredentialKind
	// TenantID and ClientID are AZURE_TENANT_ID and AZURE_CLIENT_ID. For a
	// managed identity, ClientID selects a user-assigned identity (optional).
	TenantID, ClientID string
	// ClientSecret is AZURE_CLIENT_SECRET.
	ClientSecret string
	// CertificatePath and CertificatePassword are
	// AZURE_CLIENT_CERTIFICATE_PATH and AZURE_CLIENT_CERTIFICATE_PASSWORD.
	CertificatePath, CertificatePassword string
	// SendCertificateChain is AZURE_CLIENT_SEND_CERTIFICATE_CHAIN.
	SendCertificateChain bool
	// FederatedTokenFile is AZURE_FEDERATED_TOKEN_FILE.
	FederatedTokenFile string
	// AuthorityHost is AZURE_AUTHORITY_HOST ("": the public cloud's).
	AuthorityHost string
	// DisableInstanceDiscovery is outbound__eventgrid__disableInstanceDiscovery.
	DisableInstanceDiscovery bool
	// Transport carries token requests (nil: the Azure SDK's default client,
	// which trusts the system roots, SSL_CERT_FILE included).
	Transport policy.Transporter
}

// NewCredential builds the credential once, at start. It reads the
// certificate file and checks the federated token file, but makes no network
// call: the first token is requested by the first delivery that needs one,
// and the credential caches and refreshes tokens after that. Errors name the
// variables to fix.
func NewCredential(c CredentialConfig) (azcore.TokenCredential, error) {
	opts := c.clientOptions()
	var cred azcore.TokenCredential
	var err error
	switch c.Kind {
	case CredentialSecret:
		cred, err = azidentity.NewClientSecretCredential(c.TenantID, c.ClientID, c.ClientSecret,
			&azidentity.ClientSecretCredentialOptions{ClientOptions: opts, DisableInstanceDiscovery: c.DisableInstanceDiscovery})
	case CredentialCertificate:
		cred, err = c.certificate(opts)
	case CredentialWorkloadIdentity:
		cred, err = c.workloadIdentity(opts)
	case CredentialManagedIdentity:
		mo := &azidentity.ManagedIdentityCredentialOptions{ClientOptions: opts}
		if c.ClientID != "" {
			mo.ID = azidentity.ClientID(c.ClientID)
		}
		cred, err = azidentity.NewManagedIdentityCredential(mo)
	default:
		return nil, fmt.Errorf("outbound__eventgrid__credential: unknown Entra ID credential %q", c.Kind)
	}
	if err != nil {
		return nil, fmt.Errorf("Entra ID credential %s (%s): %w", c.Kind, c.variables(), err)
	}
	return cred, nil
}

func (c CredentialConfig) clientOptions() azcore.ClientOptions {
	var o azcore.ClientOptions
	if c.AuthorityHost != "" {
		o.Cloud = cloud.Configuration{ActiveDirectoryAuthorityHost: c.AuthorityHost}
	}
	if c.Transport != nil {
		o.Transport = c.Transport
	}
	return o
}

func (c CredentialConfig) certificate(opts azcore.ClientOptions) (azcore.TokenCredential, error) {
	data, err := os.ReadFile(c.CertificatePath)
	if err != nil {
		return nil, fmt.Errorf("AZURE_CLIENT_CERTIFICATE_PATH=%q cannot be read: %w", c.CertificatePath, err)
	}
	certs, key, err := azidentity.ParseCertificates(data, []byte(c.CertificatePassword))
	if err != nil {
		return nil, fmt.Errorf("AZURE_CLIENT_CERTIFICATE_PATH=%q is not a PEM or PKCS#12 certificate with its private key "+
			"(AZURE_CLIENT_CERTIFICATE_PASSWORD must be its password if it has one): %w", c.CertificatePath, err)
	}
	return azidentity.NewClientCertificateCredential(c.TenantID, c.ClientID, certs, key,
		&azidentity.ClientCertificateCredentialOptions{ClientOptions: opts,
			DisableInstanceDiscovery: c.DisableInstanceDiscovery, SendCertificateChain: c.SendCertificateChain})
}

func (c CredentialConfig) workloadIdentity(opts azcore.ClientOptions) (azcore.TokenCredential, error) {
	f, err := os.Open(c.FederatedTokenFile)
	if err != nil {
		return nil, fmt.Errorf("AZURE_FEDERATED_TOKEN_FILE=%q cannot be read: %w", c.FederatedTokenFile, err)
	}
	_ = f.Close()
	return azidentity.NewWorkloadIdentityCredential(&azidentity.WorkloadIdentityCredentialOptions{
		ClientOptions: opts, TenantID: c.TenantID, ClientID: c.ClientID, TokenFilePath: c.FederatedTokenFile,
		DisableInstanceDiscovery: c.DisableInstanceDiscovery})
}

// variables names the settings a credential was built from, for messages.
func (c CredentialConfig) variables() string {
	switch c.Kind {
	case CredentialSecret:
		return "AZURE_TENANT_ID, AZURE_CLIENT_ID, AZURE_CLIENT_SECRET"
	case CredentialCertificate:
		return "AZURE_TENANT_ID, AZURE_CLIENT_ID, AZURE_CLIENT_CERTIFICATE_PATH, AZURE_CLIENT_CERTIFICATE_PASSWORD"
	case CredentialWorkloadIdentity:
		return "AZURE_TENANT_ID, AZURE_CLIENT_ID, AZURE_FEDERATED_TOKEN_FILE"
	}
	return "IDENTITY_ENDPOINT, IDENTITY_HEADER, IMDS_ENDPOINT, AZURE_CLIENT_ID"
}

// Describe names the credential for logs, without secrets, e.g.
// "secret (AZURE_CLIENT_ID=…, AZURE_TENANT_ID=…)".
func (c CredentialConfig) Describe() string {
	switch {
	case c.Kind == CredentialManagedIdentity && c.ClientID == "":
		return "managedIdentity (system-assigned)"
	case c.Kind == CredentialManagedIdentity:
		return "managedIdentity (AZURE_CLIENT_ID=" + c.ClientID + ")"
	}
	return string(c.Kind) + " (AZURE_CLIENT_ID=" + c.ClientID + ", AZURE_TENANT_ID=" + c.TenantID + ")"
}
