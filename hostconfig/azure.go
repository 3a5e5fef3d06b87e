package hostconfig

// Azure holds the standard variables of the Azure SDKs that configure a
// Microsoft Entra ID credential. EventGrid deliveries without a SAS key
// authenticate with it (outbound__eventgrid__credential chooses which one).
// Names are upper case as the SDKs read them; Load matches them in any case.
// None has a default.
type Azure struct {
	// TenantID is AZURE_TENANT_ID, the Entra ID tenant of a service principal
	// or workload identity.
	TenantID string `envconfig:"AZURE_TENANT_ID" desc:"Entra ID tenant (directory) id"`
	// ClientID is AZURE_CLIENT_ID: the application (client) id of a service
	// principal or workload identity, or of a user-assigned managed identity
	// (optional there: without it the system-assigned identity is used).
	ClientID string `envconfig:"AZURE_CLIENT_ID" desc:"application (client) id; for managed identity: a user-assigned identity"`
	// ClientSecret is AZURE_CLIENT_SECRET, a service principal's secret.
	ClientSecret string `envconfig:"AZURE_CLIENT_SECRET" secret:"true" desc:"service principal client secret"`
	// ClientCertificatePath is AZURE_CLIENT_CERTIFICATE_PATH: a PEM or PKCS#12
	// file with a service principal's certificate and private key.
	ClientCertificatePath string `envconfig:"AZURE_CLIENT_CERTIFICATE_PATH" desc:"service principal certificate and key (PEM or PKCS#12 file)"`
	// ClientCertificatePassword is AZURE_CLIENT_CERTIFICATE_PASSWORD, the
	// password of an encrypted certificate file.
	ClientCertificatePassword string `envconfig:"AZURE_CLIENT_CERTIFICATE_PASSWORD" secret:"true" desc:"password of the certificate file"`
	// SendCertificateChain is AZURE_CLIENT_SEND_CERTIFICATE_CHAIN: send the
	// certificate chain (x5c) for subject name/issuer authentication.
	SendCertificateChain bool `envconfig:"AZURE_CLIENT_SEND_CERTIFICATE_CHAIN" default:"false" desc:"send the certificate chain (subject name/issuer authentication)"`
	// FederatedTokenFile is AZURE_FEDERATED_TOKEN_FILE, the file a workload
	// identity's federated token is read from (re-read as it rotates).
	FederatedTokenFile string `envconfig:"AZURE_FEDERATED_TOKEN_FILE" desc:"federated token file (workload identity)"`
	// AuthorityHost is AZURE_AUTHORITY_HOST, the Entra ID authority; empty
	// means https://login.microsoftonline.com/. Must be an https URL.
	AuthorityHost string `envconfig:"AZURE_AUTHORITY_HOST" desc:"Entra ID authority (default https://login.microsoftonline.com/)"`
	// IdentityEndpoint is IDENTITY_ENDPOINT, set by hosts offering a managed
	// identity (App Service, Azure Arc). It only selects managed identity;
	// the Azure SDK reads it, and IDENTITY_HEADER or IMDS_ENDPOINT, itself.
	IdentityEndpoint string `envconfig:"IDENTITY_ENDPOINT" desc:"managed identity endpoint (set by the host); selects managed identity"`
}

// EntraCredential is the value of outbound__eventgrid__credential.
type EntraCredential string

// The Entra ID credentials. Config.EntraCredential never returns EntraAuto.
const (
	EntraAuto             EntraCredential = "auto"
	EntraNone             EntraCredential = "none"
	EntraSecret           EntraCredential = "secret"
	EntraCertificate      EntraCredential = "certificate"
	EntraWorkloadIdentity EntraCredential = "workloadIdentity"
	EntraManagedIdentity  EntraCredential = "managedIdentity"
)

var entraCredentials = []EntraCredential{EntraAuto, EntraNone, EntraSecret, EntraCertificate, EntraWorkloadIdentity, EntraManagedIdentity}

// Decode implements envconfig.Decoder: it accepts any case and stores the
// canonical spelling.
func (e *EntraCredential) Decode(v string) error { return decodeEnum(e, v, entraCredentials) }

func (EntraCredential) enumValues() []string { return enumStrings(entraCredentials) }

// EntraCredential returns the credential EventGrid deliveries use for Entra
// ID, or EntraNone. outbound__eventgrid__credential names it, or, when auto,
// the first of these whose variable is set: secret (AZURE_CLIENT_SECRET),
// certificate (AZURE_CLIENT_CERTIFICATE_PATH), workloadIdentity
// (AZURE_FEDERATED_TOKEN_FILE), managedIdentity (IDENTITY_ENDPOINT). On an
// Azure VM, whose managed identity has no variable, set managedIdentity.
func (c *Config) EntraCredential() EntraCredential {
	kind, _ := entraChoice(c.Outbound.EventGridCredential, c.Azure)
	return kind
}

// autoOrder is the auto selection, each with the variable that selects it.
var autoOrder = []struct {
	kind EntraCredential
	name string
	get  func(Azure) string
}{
	{EntraSecret, "AZURE_CLIENT_SECRET", func(a Azure) string { return a.ClientSecret }},
	{EntraCertificate, "AZURE_CLIENT_CERTIFICATE_PATH", func(a Azure) string { return a.ClientCertificatePath }},
	{EntraWorkloadIdentity, "AZURE_FEDERATED_TOKEN_FILE", func(a Azure) string { return a.FederatedTokenFile }},
	{EntraManagedIdentity, "IDENTITY_ENDPOINT", func(a Azure) string { return a.IdentityEndpoint }},
}

// entraChoice resolves auto and says why, for messages.
func entraChoice(set EntraCredential, az Azure) (EntraCredential, string) {
	kind, ok := matchEnum(set, entraCredentials)
	if ok && kind != EntraAuto {
		return kind, "outbound__eventgrid__credential=" + string(kind)
	}
	for _, o := range autoOrder {
		if o.get(az) != "" {
			return o.kind, o.name + " is set, so outbound__eventgrid__credential=auto chose " + string(o.kind) + ","
		}
	}
	return EntraNone, ""
}
