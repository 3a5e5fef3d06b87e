package edgehub

import (
	"net/url"
	"strings"
)

// apiVersion is the IoT Hub MQTT api-version sent in the username; edgeHub
// requires one and does not check its value (2021-04-12 is IoT Hub's current).
const apiVersion = "2021-04-12"

// Identity is the module as edgeHub knows it (the IOTEDGE_* environment).
type Identity struct {
	// HubHostname is IOTEDGE_IOTHUBHOSTNAME, e.g. contoso.azure-devices.net.
	HubHostname string
	// Gateway is IOTEDGE_GATEWAYHOSTNAME: edgeHub's host and TLS server name.
	Gateway string
	// DeviceID and ModuleID are IOTEDGE_DEVICEID and IOTEDGE_MODULEID.
	DeviceID, ModuleID string
}

// ClientID is the MQTT client id edgeHub expects: {deviceId}/{moduleId}.
func (id Identity) ClientID() string { return id.DeviceID + "/" + id.ModuleID }

// Username is the MQTT username edgeHub expects:
// {hub}/{deviceId}/{moduleId}/?api-version=…&DeviceClientType=…
func (id Identity) Username(clientType string) string {
	return id.HubHostname + "/" + id.ClientID() + "/?api-version=" + apiVersion +
		"&DeviceClientType=" + url.QueryEscape(clientType)
}

// Resource is what the module's SAS tokens grant access to.
func (id Identity) Resource() string {
	return id.HubHostname + "/devices/" + id.DeviceID + "/modules/" + id.ModuleID
}

func (id Identity) topicBase() string {
	return "devices/" + id.DeviceID + "/modules/" + id.ModuleID + "/"
}

// InputsFilter is the subscription that receives every module input; edgeHub
// only recognises module-message filters ending in "/#".
func (id Identity) InputsFilter() string { return id.topicBase() + "inputs/#" }

// OutputTopic is where a message for a module output is published: the
// events topic with the output name ($.on) and the content type and
// encoding edgeHub routes need to query the body.
func (id Identity) OutputTopic(output string) string {
	return id.topicBase() + "messages/events/%24.on=" + url.QueryEscape(output) +
		"&%24.ct=application%2Fjson&%24.ce=utf-8"
}

// InputName returns the input a message arrived on and its property bag, or
// ok false when topic is not one of this module's input topics
// (devices/{d}/modules/{m}/inputs/{input}[/{property-bag}]).
func (id Identity) InputName(topic string) (input string, props map[string]string, ok bool) {
	rest, found := strings.CutPrefix(topic, id.topicBase()+"inputs/")
	if !found {
		return "", nil, false
	}
	input, bag, _ := strings.Cut(rest, "/")
	if input == "" {
		return "", nil, false
	}
	return input, ParsePropertyBag(bag), true
}

// ParsePropertyBag decodes an IoT Hub property bag: key=value pairs joined by
// '&', each part percent-decoded on its own ('+' stays '+'). A key without '='
// has an empty value; parts that do not decode are kept as sent.
func ParsePropertyBag(bag string) map[string]string {
	props := map[string]string{}
	for _, part := range strings.Split(bag, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		props[unescape(k)] = unescape(v)
	}
	return props
}

func unescape(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}
