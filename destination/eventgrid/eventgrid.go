// Package eventgrid forwards events to an Azure Event Grid topic in the cloud
// (endpointType EventGrid). The endpoint is validated as the original module
// did. Requests carry the topic's SAS key in aeg-sas-key, or a Microsoft Entra
// ID bearer token for Scope obtained through azidentity with the one
// credential the module is configured with (NewCredential).
//
// Each delivery is sent as the cloud expects it: Event Grid events as a JSON
// array with their topic set to the destination's topicName (or null),
// CloudEvents as a batch, custom events verbatim; split into requests of at
// most MaxRequestBytes, all of which must succeed for the delivery to count.
// A 401 or 403 is logged once per subscription until a delivery succeeds.
package eventgrid

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/destination"
)

// CloudAPIVersion is the Event Grid data-plane version the endpoint must name.
const CloudAPIVersion = "2018-01-01"

// cloudHosts are the Event Grid endpoint domains of the Azure clouds.
var cloudHosts = []string{"eventgrid.azure.net", "eventgrid.azure.us", "eventgrid.azure.cn"}

// Options configure the EventGrid destination.
type Options struct {
	// HTTPSOnly is outbound__eventgrid__httpsOnly: refuse http:// endpoints.
	HTTPSOnly bool
	// AllowInvalidHostnames is outbound__eventgrid__allowInvalidHostnames:
	// accept hosts outside the Azure clouds' Event Grid domains.
	AllowInvalidHostnames bool
	// Credential obtains Entra ID tokens for destinations that do not use a
	// SAS key; nil when the module has no Entra ID credential. Shared by all
	// senders, so its token cache is too.
	Credential azcore.TokenCredential
	// CredentialName describes Credential in logs, e.g. "secret (AZURE_CLIENT_ID=…)".
	CredentialName string
	// Logger receives the once-per-subscription authentication failures
	// (zero value: discard).
	Logger zerolog.Logger
	// UserAgent is sent with every request ("" : "edgegrid").
	UserAgent string
	// Timeout bounds one request; 0 means DefaultTimeout.
	Timeout time.Duration
}

// DefaultTimeout bounds one request to the cloud, as for webhooks: the module
// "waits up to 60 seconds for a response".
const DefaultTimeout = 60 * time.Second

func (o *Options) setDefaults() {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.UserAgent == "" {
		o.UserAgent = "edgegrid"
	}
}

// ValidateEndpoint applies the documented rules to an EventGrid destination.
func (o Options) ValidateEndpoint(ep *destination.Endpoint) error {
	if strings.TrimSpace(ep.URL) == "" {
		return invalid("EndpointUrl must be specified for an EventGrid destination.")
	}
	u, err := url.Parse(ep.URL)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return invalid("EndpointUrl must be an absolute URL.")
	}
	if !strings.Contains(u.Path, "/api/events") {
		return invalid("EndpointUrl must target the /api/events API of Azure Event Grid in the cloud.")
	}
	if u.Query().Get("api-version") != CloudAPIVersion {
		return invalid("EndpointUrl must have api-version=" + CloudAPIVersion + " in its query string.")
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
	case "http":
		if o.HTTPSOnly {
			return invalid("EndpointUrl must use https because outbound__eventgrid__httpsOnly is true.")
		}
	default:
		return invalid(fmt.Sprintf("EndpointUrl scheme '%s' is not supported.", u.Scheme))
	}
	if !o.AllowInvalidHostnames && !isCloudHost(u.Hostname()) {
		return invalid("EndpointUrl must target an Azure Event Grid host (*.eventgrid.azure.net, *.eventgrid.azure.us or *.eventgrid.azure.cn) unless outbound__eventgrid__allowInvalidHostnames is true.")
	}
	return o.validateAuth(ep)
}

// noCredential completes the messages about a missing Entra ID credential.
const noCredential = "no Entra ID credential is configured on the module (set AZURE_TENANT_ID, AZURE_CLIENT_ID and AZURE_CLIENT_SECRET, " +
	"or a client certificate, workload identity or managed identity; see outbound__eventgrid__credential)."

// validateAuth checks that the destination can authenticate: a SAS key, or
// Entra ID with a credential configured.
func (o Options) validateAuth(ep *destination.Endpoint) error {
	switch ep.Authentication {
	case destination.AuthDefault:
		if ep.SASKey == "" && o.Credential == nil {
			return invalid("SasKey must be specified for an EventGrid destination, unless it authenticates with Entra ID, and " + noCredential)
		}
	case destination.AuthSASKey:
		if ep.SASKey == "" {
			return invalid("SasKey must be specified when Authentication is SasKey.")
		}
	case destination.AuthEntraID:
		if ep.SASKey != "" {
			return invalid("SasKey must not be given when Authentication is EntraId.")
		}
		if o.Credential == nil {
			return invalid("Authentication EntraId needs an Entra ID credential, and " + noCredential)
		}
	default:
		return invalid(fmt.Sprintf("Authentication '%s' is unknown; use SasKey or EntraId.", ep.Authentication))
	}
	return nil
}

// usesEntraID reports whether a validated endpoint authenticates with Entra ID.
func usesEntraID(ep *destination.Endpoint) bool {
	return ep.Authentication == destination.AuthEntraID || (ep.Authentication == destination.AuthDefault && ep.SASKey == "")
}

func isCloudHost(h string) bool {
	h = strings.ToLower(strings.TrimSuffix(h, "."))
	for _, c := range cloudHosts {
		if h == c || strings.HasSuffix(h, "."+c) {
			return true
		}
	}
	return false
}

func invalid(reason string) error {
	return fmt.Errorf("%w: %s", destination.ErrInvalidEndpoint, reason)
}
