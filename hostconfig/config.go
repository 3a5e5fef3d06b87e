package hostconfig

// Config is edgegrid's whole configuration. Build it with Load (from the
// environment) or Defaults (without one).
//
// Every struct-typed field of Config is a section. Every field of a section
// carries its documented variable name in an envconfig tag, its default in a
// default tag, and a one-line description in a desc tag; a secret:"true" tag
// marks values that must never be shown. Load, Names, IsKnown, Usage and
// Summary all derive from those tags, so a new setting is one new field.
type Config struct {
	Inbound  Inbound  // inbound__…: REST API listeners and client authentication
	Outbound Outbound // outbound__…: how deliveries authenticate and check servers
	Broker   Broker   // broker__…: delivery defaults and resource limits
	API      API      // api__deliveryPolicyLimits__…: limits on subscription settings
	Metrics  Metrics  // metrics__…
	Log      Log      // log__level and IoT Edge's RuntimeLogLevel
	Edge     Edge     // IOTEDGE_…: the IoT Edge runtime environment
	Azure    Azure    // AZURE_…: the Entra ID credential of EventGrid deliveries
	EdgeHub  EdgeHub  // edgeHub__…: the edgeHub connection (IoT Edge mode)

	// Warnings lists what Load noticed but did not reject: conflicting
	// spellings, unknown variables with our prefixes, settings without
	// effect. Sorted; never contains values. For main to log.
	Warnings []string
}

// Inbound configures the REST API listeners and how callers authenticate.
type Inbound struct {
	// TLSPolicy is inbound__serverAuth__tlsPolicy: strict (HTTPS only),
	// enabled (HTTPS and HTTP) or disabled (HTTP only), any case.
	// Default strict.
	TLSPolicy TLSPolicy `envconfig:"inbound__serverAuth__tlsPolicy" default:"strict" desc:"strict: HTTPS only; enabled: HTTPS and HTTP; disabled: HTTP only"`

	// ServerCertSource is inbound__serverAuth__serverCert__source: where the
	// HTTPS server certificate comes from. Only IoTEdge (any case).
	// Default IoTEdge.
	ServerCertSource CertSource `envconfig:"inbound__serverAuth__serverCert__source" default:"IoTEdge" desc:"source of the HTTPS server certificate"`

	// ServerCertFile is inbound__serverAuth__serverCert__certFile, an
	// addition of this project: outside IoT Edge, a PEM file holding the
	// HTTPS certificate followed by its chain. Set with ServerKeyFile or not
	// at all; when neither is set a self-signed certificate is generated at
	// start. Ignored (with a warning) in IoT Edge mode.
	ServerCertFile string `envconfig:"inbound__serverAuth__serverCert__certFile" desc:"outside IoT Edge: PEM certificate chain for HTTPS (else self-signed) [edgegrid addition]"`

	// ServerKeyFile is inbound__serverAuth__serverCert__keyFile, an addition
	// of this project: the PEM private key of ServerCertFile.
	ServerKeyFile string `envconfig:"inbound__serverAuth__serverCert__keyFile" desc:"outside IoT Edge: PEM private key for HTTPS [edgegrid addition]"`

	// ClientCertEnabled is inbound__clientAuth__clientCert__enabled: require
	// callers to present a client certificate. Default true.
	ClientCertEnabled bool `envconfig:"inbound__clientAuth__clientCert__enabled" default:"true" desc:"require a client certificate from callers"`

	// ClientCertSource is inbound__clientAuth__clientCert__source: the trust
	// bundle client certificates are checked against. Only IoTEdge.
	// Default IoTEdge.
	ClientCertSource CertSource `envconfig:"inbound__clientAuth__clientCert__source" default:"IoTEdge" desc:"trust bundle for client certificates"`

	// ClientCertAllowUnknownCA is
	// inbound__clientAuth__clientCert__allowUnknownCA: accept client
	// certificates that do not chain to the trust bundle (self-signed).
	// Default true.
	ClientCertAllowUnknownCA bool `envconfig:"inbound__clientAuth__clientCert__allowUnknownCA" default:"true" desc:"accept self-signed client certificates"`

	// SASKeysEnabled is inbound__clientAuth__sasKeys__enabled: accept the
	// aeg-sas-key header. Default false. When true, SASKey1 or SASKey2 (or
	// both) must be set.
	SASKeysEnabled bool `envconfig:"inbound__clientAuth__sasKeys__enabled" default:"false" desc:"accept the aeg-sas-key header"`

	// SASKey1 is inbound__clientAuth__sasKeys__key1, a secret. No default.
	SASKey1 string `envconfig:"inbound__clientAuth__sasKeys__key1" secret:"true" desc:"first accepted SAS key"`

	// SASKey2 is inbound__clientAuth__sasKeys__key2, a secret. No default.
	SASKey2 string `envconfig:"inbound__clientAuth__sasKeys__key2" secret:"true" desc:"second accepted SAS key"`

	// HTTPSPort is inbound__httpsPort, an addition of this project: the HTTPS
	// listener's port. Default 4438; range 0..65535, where 0 picks a free
	// port (the module logs the real one).
	HTTPSPort int `envconfig:"inbound__httpsPort" default:"4438" desc:"HTTPS port (0: any free port) [edgegrid addition]"`

	// HTTPPort is inbound__httpPort, an addition of this project: the HTTP
	// listener's port. Default 5888; range 0..65535, 0 picks a free port.
	// With tlsPolicy enabled it must differ from HTTPSPort unless both are 0.
	HTTPPort int `envconfig:"inbound__httpPort" default:"5888" desc:"HTTP port (0: any free port) [edgegrid addition]"`

	// BindAddress is inbound__bindAddress, an addition of this project: the
	// IP address both listeners bind to, such as 127.0.0.1 or ::1. Default ""
	// (all interfaces); must parse as an IP address when set.
	BindAddress string `envconfig:"inbound__bindAddress" desc:"listen address, e.g. 127.0.0.1 or ::1 (empty: all interfaces) [edgegrid addition]"`
}

// ServeHTTPS reports whether the HTTPS listener runs (policy strict or
// enabled).
func (in Inbound) ServeHTTPS() bool {
	p, _ := matchEnum(in.TLSPolicy, tlsPolicies)
	return p == TLSPolicyStrict || p == TLSPolicyEnabled
}

// ServeHTTP reports whether the plain-HTTP listener runs (policy enabled or
// disabled).
func (in Inbound) ServeHTTP() bool {
	p, _ := matchEnum(in.TLSPolicy, tlsPolicies)
	return p == TLSPolicyEnabled || p == TLSPolicyDisabled
}

// Outbound configures how deliveries authenticate and check servers.
type Outbound struct {
	// ClientCertEnabled is outbound__clientAuth__clientCert__enabled: present
	// the module's identity certificate on outgoing calls. Default true.
	ClientCertEnabled bool `envconfig:"outbound__clientAuth__clientCert__enabled" default:"true" desc:"present the module identity certificate to subscribers"`

	// ClientCertSource is outbound__clientAuth__clientCert__source: where the
	// identity certificate comes from. Only IoTEdge. Default IoTEdge.
	ClientCertSource CertSource `envconfig:"outbound__clientAuth__clientCert__source" default:"IoTEdge" desc:"source of the identity certificate"`

	// ClientCertFile is outbound__clientAuth__clientCert__certFile, an
	// addition of this project: outside IoT Edge, a PEM file holding the
	// client certificate (and chain) presented to subscribers that ask for
	// one. Set with ClientKeyFile or not at all; when neither is set no
	// certificate is presented. Ignored (with a warning) in IoT Edge mode.
	ClientCertFile string `envconfig:"outbound__clientAuth__clientCert__certFile" desc:"outside IoT Edge: PEM client certificate chain for subscribers (else none) [edgegrid addition]"`

	// ClientKeyFile is outbound__clientAuth__clientCert__keyFile, an addition
	// of this project: the PEM private key of ClientCertFile.
	ClientKeyFile string `envconfig:"outbound__clientAuth__clientCert__keyFile" desc:"outside IoT Edge: PEM private key of the client certificate [edgegrid addition]"`

	// WebhookHTTPSOnly is outbound__webhook__httpsOnly: accept only https://
	// webhook endpoints. Default true.
	WebhookHTTPSOnly bool `envconfig:"outbound__webhook__httpsOnly" default:"true" desc:"accept only https:// webhook endpoints"`

	// WebhookSkipServerCertValidation is
	// outbound__webhook__skipServerCertValidation: do not verify webhook
	// server certificates. Default false (security-authentication.md; some
	// pages say true, edge-spec §5.1).
	WebhookSkipServerCertValidation bool `envconfig:"outbound__webhook__skipServerCertValidation" default:"false" desc:"do not verify webhook server certificates"`

	// WebhookAllowUnknownCA is outbound__webhook__allowUnknownCA: accept
	// self-signed webhook server certificates. Default true.
	WebhookAllowUnknownCA bool `envconfig:"outbound__webhook__allowUnknownCA" default:"true" desc:"accept self-signed webhook server certificates"`

	// EventGridHTTPSOnly is outbound__eventgrid__httpsOnly: accept only
	// https:// cloud Event Grid endpoints. Default true.
	EventGridHTTPSOnly bool `envconfig:"outbound__eventgrid__httpsOnly" default:"true" desc:"accept only https:// Event Grid endpoints"`

	// EventGridAllowInvalidHostnames is
	// outbound__eventgrid__allowInvalidHostnames: accept EventGrid endpoint
	// hosts outside eventgrid.azure.net/.us/.cn (api.md). Default false.
	EventGridAllowInvalidHostnames bool `envconfig:"outbound__eventgrid__allowInvalidHostnames" default:"false" desc:"accept EventGrid endpoints outside *.eventgrid.azure.net/.us/.cn"`

	// EventGridCredential is outbound__eventgrid__credential, an addition of
	// this project: the Microsoft Entra ID credential EventGrid deliveries
	// authenticate with when they do not use a SAS key. auto (default) picks
	// one from the Azure variables (see Config.EntraCredential); none turns
	// Entra ID off; secret, certificate, workloadIdentity and managedIdentity
	// force one. Any case.
	EventGridCredential EntraCredential `envconfig:"outbound__eventgrid__credential" default:"auto" desc:"Entra ID credential for EventGrid deliveries: auto picks from AZURE_* [edgegrid addition]"`

	// EventGridDisableInstanceDiscovery is
	// outbound__eventgrid__disableInstanceDiscovery, an addition of this
	// project: do not ask login.microsoftonline.com to validate the Entra ID
	// authority. Only for an AZURE_AUTHORITY_HOST of a private or disconnected
	// cloud (Azure Stack), which must then be trusted. Default false.
	EventGridDisableInstanceDiscovery bool `envconfig:"outbound__eventgrid__disableInstanceDiscovery" default:"false" desc:"skip Entra ID authority validation (private clouds, Azure Stack) [edgegrid addition]"`
}
