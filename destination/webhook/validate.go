package webhook

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/edgegrid/edgegrid/destination"
)

// Limits on custom delivery headers, as cloud Event Grid documents them.
const (
	MaxHeaders     = 10
	MaxHeaderValue = 4096
)

// reservedHeaders cannot be set by a subscription: they carry the request's own
// framing or Event Grid's meaning.
var reservedHeaders = map[string]bool{
	"Content-Type": true, "Content-Length": true, "Host": true, "Transfer-Encoding": true,
	"Connection": true, "Upgrade": true, "Te": true, "Trailer": true, "Keep-Alive": true,
	"Proxy-Authorization": true, "Expect": true,
}

// Validate checks a WebHook endpoint: endpointUrl non-null, absolute, http(s),
// https when HTTPSOnly; custom headers within the cloud's limits.
func (f *Factory) Validate(ep *destination.Endpoint) error {
	if err := f.validateURL(ep.URL); err != nil {
		return err
	}
	return validateHeaders(ep.Headers)
}

func (f *Factory) validateURL(raw string) error {
	if strings.TrimSpace(raw) == "" {
		return invalid("EndpointUrl must be specified for a WebHook destination.")
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return invalid("EndpointUrl must be an absolute URL.")
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
	case "http":
		if f.opts.HTTPSOnly {
			return invalid("EndpointUrl must use https because outbound__webhook__httpsOnly is true; use an https:// URL or set outbound__webhook__httpsOnly=false.")
		}
	default:
		return invalid(fmt.Sprintf("EndpointUrl scheme '%s' is not supported; use https:// (or http:// when outbound__webhook__httpsOnly=false).", u.Scheme))
	}
	return nil
}

func validateHeaders(hs []destination.Header) error {
	if len(hs) > MaxHeaders {
		return invalid(fmt.Sprintf("At most %d delivery attribute mappings (custom headers) are allowed; got %d.", MaxHeaders, len(hs)))
	}
	seen := map[string]bool{}
	for _, h := range hs {
		name := http.CanonicalHeaderKey(h.Name)
		switch {
		case !validToken(h.Name):
			return invalid(fmt.Sprintf("Delivery attribute mapping name '%s' is not a valid HTTP header name.", h.Name))
		case strings.HasPrefix(strings.ToLower(h.Name), "aeg-"):
			return invalid(fmt.Sprintf("Delivery attribute mapping name '%s' must not start with 'aeg-'.", h.Name))
		case reservedHeaders[name]:
			return invalid(fmt.Sprintf("Delivery attribute mapping name '%s' is reserved.", h.Name))
		case seen[name]:
			return invalid(fmt.Sprintf("Delivery attribute mapping name '%s' is given twice.", h.Name))
		case len(h.Value) > MaxHeaderValue:
			return invalid(fmt.Sprintf("Delivery attribute mapping '%s' has a value of %d bytes; at most %d are allowed.", h.Name, len(h.Value), MaxHeaderValue))
		case strings.ContainsAny(h.Value, "\r\n\x00"):
			return invalid(fmt.Sprintf("Delivery attribute mapping '%s' has a value with control characters.", h.Name))
		}
		seen[name] = true
	}
	return nil
}

func validToken(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c > 0x7e || c <= 0x20 || strings.ContainsRune("()<>@,;:\\\"/[]?={}", c) {
			return false
		}
	}
	return true
}

func invalid(reason string) error {
	return fmt.Errorf("%w: %s", destination.ErrInvalidEndpoint, reason)
}
