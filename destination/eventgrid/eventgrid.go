// Package eventgrid forwards events to an Azure Event Grid topic in the cloud
// (endpointType EventGrid): the endpoint is validated as the original module
// did, and requests carry the topic's SAS key in aeg-sas-key.
package eventgrid

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/edgegrid/edgegrid/destination"
)

// CloudAPIVersion is the Event Grid data-plane version the endpoint must name.
const CloudAPIVersion = "2018-01-01"

// cloudHosts are the Event Grid endpoint domains of the Azure clouds.
var cloudHosts = []string{"eventgrid.azure.net", "eventgrid.azure.us", "eventgrid.azure.cn"}

// Options mirror outbound__eventgrid__httpsOnly and
// outbound__eventgrid__allowInvalidHostnames.
type Options struct {
	HTTPSOnly             bool
	AllowInvalidHostnames bool
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
	if ep.SASKey == "" {
		return invalid("SasKey must be specified for an EventGrid destination.")
	}
	return nil
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
