package destination

import "strings"

// EndpointType is a subscription's destination kind.
type EndpointType string

// The destination kinds. Mqtt is an addition of this project.
const (
	WebHook   EndpointType = "WebHook"
	EdgeHub   EndpointType = "EdgeHub"
	EventGrid EndpointType = "EventGrid"
	Mqtt      EndpointType = "Mqtt"
)

// ParseEndpointType matches a type name case-insensitively (the SDK sends
// "Webhook", tutorials "webHook", "edgeHub", "eventGrid").
func ParseEndpointType(s string) (EndpointType, bool) {
	for _, t := range [...]EndpointType{WebHook, EdgeHub, EventGrid, Mqtt} {
		if strings.EqualFold(string(t), strings.TrimSpace(s)) {
			return t, true
		}
	}
	return "", false
}

// Endpoint is a subscription's destination as configured. Fields that do not
// apply to Type are empty.
type Endpoint struct {
	Type EndpointType `json:"endpointType"`
	// URL is the WebHook or EventGrid endpointUrl.
	URL string `json:"endpointUrl,omitempty"`
	// OutputName is the EdgeHub module output.
	OutputName string `json:"outputName,omitempty"`
	// SASKey is the EventGrid topic key; write-only, never echoed.
	SASKey string `json:"sasKey,omitempty"`
	// TopicName replaces the topic of forwarded Event Grid events (nil: nulled).
	TopicName *string `json:"topicName,omitempty"`
	// Authentication says how an EventGrid destination authenticates to the
	// cloud; AuthDefault picks SASKey when a key is given, else Entra ID.
	Authentication Authentication `json:"authentication,omitempty"`
	// MqttTopic is the topic a Mqtt destination publishes to.
	MqttTopic string `json:"mqttTopic,omitempty"`
	// Headers are static custom delivery headers (deliveryAttributeMappings).
	Headers []Header `json:"headers,omitempty"`
	// Handshake asks for the webhook validation handshake when the subscription
	// is created or updated (an opt-in addition).
	Handshake bool `json:"validationHandshake,omitempty"`
}

// Header is one custom delivery header.
type Header struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Secret bool   `json:"secret,omitempty"`
}

// Authentication is how an EventGrid destination authenticates to cloud Event
// Grid (the destination property "authentication", an addition of this project).
type Authentication string

// The authentication methods.
const (
	// AuthDefault: the SAS key when sasKey is given, else an Entra ID token when
	// the module has an Entra ID credential configured.
	AuthDefault Authentication = ""
	// AuthSASKey: the topic's access key in the aeg-sas-key header.
	AuthSASKey Authentication = "SasKey"
	// AuthEntraID: a Microsoft Entra ID bearer token for https://eventgrid.azure.net.
	AuthEntraID Authentication = "EntraId"
)

// ParseAuthentication matches a method name case-insensitively ("sasKey",
// "entraid"); "" is AuthDefault.
func ParseAuthentication(s string) (Authentication, bool) {
	s = strings.TrimSpace(s)
	for _, a := range [...]Authentication{AuthDefault, AuthSASKey, AuthEntraID} {
		if strings.EqualFold(string(a), s) {
			return a, true
		}
	}
	return "", false
}
