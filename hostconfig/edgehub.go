package hostconfig

import (
	"errors"
	"net"
	"strconv"
	"strings"
)

// edgeHubPort is edgeHub's MQTT-over-TLS port inside the IoT Edge network.
const edgeHubPort = "8883"

// EdgeHub configures the connection to IoT Edge's edgeHub, made in IoT Edge
// mode only (module outputs, module inputs, the module twin). Both settings
// are additions of this project; the original had neither.
type EdgeHub struct {
	// Address is edgeHub__address: edgeHub's MQTT host:port. Default ""
	// (IOTEDGE_GATEWAYHOSTNAME:8883). The TLS server name stays
	// IOTEDGE_GATEWAYHOSTNAME whatever the address.
	Address string `envconfig:"edgeHub__address" desc:"edgeHub MQTT host:port (empty: IOTEDGE_GATEWAYHOSTNAME:8883) [edgegrid addition]"`

	// InputRoutes is edgeHub__inputRoutes: module inputs mapped to Event
	// Grid topics, input=topic pairs separated by ';'. An input not listed
	// goes to the topic of the same name. Default "" (every input to the
	// topic of its name).
	InputRoutes InputRoutes `envconfig:"edgeHub__inputRoutes" desc:"module inputs to topics, input=topic;input2=topic2 (unlisted inputs go to the topic of the same name) [edgegrid addition]"`
}

// EdgeHubAddress returns where edgeHub listens: edgeHub__address, else
// IOTEDGE_GATEWAYHOSTNAME:8883; "" outside IoT Edge or when neither is set.
func (c *Config) EdgeHubAddress() string {
	switch {
	case c.Mode() != ModeEdge:
		return ""
	case c.EdgeHub.Address != "":
		return c.EdgeHub.Address
	case c.Edge.GatewayHostname != "":
		return net.JoinHostPort(c.Edge.GatewayHostname, edgeHubPort)
	}
	return ""
}

// InputRoute maps one module input to an Event Grid topic.
type InputRoute struct{ Input, Topic string }

// InputRoutes is the value of edgeHub__inputRoutes.
type InputRoutes []InputRoute

// Decode implements envconfig.Decoder: "in1=topicA; in2=topicB" (blanks
// around names and a trailing ';' are ignored). Input names may not contain
// / # + or '='; topic names follow the REST API's rule (1-128 letters,
// digits, '-', '_'); an input may be listed once.
func (r *InputRoutes) Decode(v string) error {
	var out InputRoutes
	seen := map[string]bool{}
	for _, part := range strings.Split(v, ";") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		in, topic, ok := strings.Cut(part, "=")
		in, topic = strings.TrimSpace(in), strings.TrimSpace(topic)
		switch {
		case !ok || in == "" || topic == "":
			return errors.New("'" + strings.TrimSpace(part) + "' is not input=topic")
		case strings.ContainsAny(in, "/#+=") || strings.ContainsFunc(in, isSpaceOrControl):
			return errors.New("input '" + in + "' must not contain / # + = or blanks")
		case !validTopicName(topic):
			return errors.New("topic '" + topic + "' must be 1-128 letters, digits, '-' or '_'")
		case seen[in]:
			return errors.New("input '" + in + "' is listed twice")
		}
		seen[in] = true
		out = append(out, InputRoute{Input: in, Topic: topic})
	}
	*r = out
	return nil
}

// String renders the routes as they are written: in1=topicA;in2=topicB.
func (r InputRoutes) String() string {
	parts := make([]string, len(r))
	for i, x := range r {
		parts[i] = x.Input + "=" + x.Topic
	}
	return strings.Join(parts, ";")
}

// Map returns input name → topic.
func (r InputRoutes) Map() map[string]string {
	m := make(map[string]string, len(r))
	for _, x := range r {
		m[x.Input] = x.Topic
	}
	return m
}

func validTopicName(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

func isSpaceOrControl(c rune) bool { return c <= ' ' || c == 0x7f }

// validateEdgeHub checks edgeHub__address.
func validateEdgeHub(e EdgeHub) []Problem {
	if e.Address == "" {
		return nil
	}
	host, port, err := net.SplitHostPort(e.Address)
	n, perr := strconv.Atoi(port)
	if err != nil || host == "" || perr != nil || n < 1 || n > maxPort {
		return []Problem{{Name: "edgeHub__address", Value: e.Address, Reason: "must be host:port, e.g. edgeHub:8883"}}
	}
	return nil
}

// lintEdgeHub warns about edgeHub settings that cannot take effect.
func lintEdgeHub(c *Config) []string {
	set := c.EdgeHub.Address != "" || len(c.EdgeHub.InputRoutes) > 0
	switch {
	case c.Mode() != ModeEdge && set:
		return []string{"edgeHub__address/edgeHub__inputRoutes are set but IOTEDGE_WORKLOADURI is not; outside IoT Edge there is no edgeHub connection"}
	case c.Mode() == ModeEdge && c.EdgeHubAddress() == "":
		return []string{"IOTEDGE_GATEWAYHOSTNAME is not set; without it (or edgeHub__address) there is no edgeHub connection"}
	}
	return nil
}
