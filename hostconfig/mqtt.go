package hostconfig

import (
	"net"
	"net/url"
	"strconv"
	"strings"
)

// MQTT configures the connection to a local MQTT broker (mosquitto, a broker
// module on the same gateway): MQTT ingest through mqtt__routes and the Mqtt
// destination. The whole section is an addition of this project. Both
// features are off when URL is unset.
type MQTT struct {
	// URL is mqtt__url: tcp://host[:port] or mqtt:// for plain MQTT (port
	// 1883 when left out), ssl://, tls:// or mqtts:// for MQTT over TLS
	// (port 8883). No user name, password, path or query in it. Default
	// unset: ingest and the Mqtt destination are off.
	URL string `envconfig:"mqtt__url" desc:"MQTT broker for ingest and the Mqtt destination: tcp://host:1883 or ssl://host:8883 (unset: off) [edgegrid addition]"`

	// ClientID is mqtt__clientId: the ingest's MQTT client id. Its session
	// is persistent, so the id must stay the same across restarts and must
	// not be shared with another client. The Mqtt destination connects as
	// ClientID + "-pub". Default unset: see Config.MQTTClientID. At most
	// 256 bytes, no control characters.
	ClientID string `envconfig:"mqtt__clientId" desc:"MQTT client id, stable across restarts; the Mqtt destination adds -pub (unset: edgegrid, or edgegrid-<device>-<module> under IoT Edge) [edgegrid addition]"`

	// Username is mqtt__username. Default unset (anonymous).
	Username string `envconfig:"mqtt__username" desc:"MQTT user name (unset: anonymous) [edgegrid addition]"`

	// Password is mqtt__password, a secret; it needs Username (MQTT 3.1.1
	// sends no password without a user name).
	Password string `envconfig:"mqtt__password" secret:"true" desc:"MQTT password; needs mqtt__username [edgegrid addition]"`

	// CAFile is mqtt__caFile: PEM certificates that sign the broker's
	// certificate, for ssl:// URLs. Default unset: the system's roots.
	CAFile string `envconfig:"mqtt__caFile" desc:"PEM CA bundle for the MQTT broker's certificate (unset: system roots) [edgegrid addition]"`

	// CertFile is mqtt__certFile: a PEM client certificate (chain) for
	// ssl:// URLs, with KeyFile.
	CertFile string `envconfig:"mqtt__certFile" desc:"PEM client certificate for MQTT over TLS; needs mqtt__keyFile [edgegrid addition]"`

	// KeyFile is mqtt__keyFile: the PEM private key of CertFile.
	KeyFile string `envconfig:"mqtt__keyFile" desc:"PEM private key of mqtt__certFile [edgegrid addition]"`

	// Routes is mqtt__routes: which MQTT topic filters feed which Event Grid
	// topics, as filter=topic pairs separated by ';', each optionally ending
	// in :raw:EventType (see MQTTRoutes). Default unset: no ingest.
	Routes MQTTRoutes `envconfig:"mqtt__routes" desc:"filter=topic[:raw:EventType] pairs separated by ';', e.g. sensors/+/telemetry=telemetry;alarms/#=alarms [edgegrid addition]"`

	// MaxMessageSizeInBytes is mqtt__maxMessageSizeInBytes: larger MQTT
	// messages are refused (acknowledged, counted and dropped). Default
	// 1048576, the largest event the broker accepts; range 1024..268435455
	// (the MQTT maximum).
	MaxMessageSizeInBytes int `envconfig:"mqtt__maxMessageSizeInBytes" default:"1048576" desc:"largest MQTT message ingested, bytes (1024-268435455) [edgegrid addition]"`
}

// Enabled reports whether an MQTT broker is configured.
func (m MQTT) Enabled() bool { return m.URL != "" }

// The URL schemes mqtt__url accepts, and whether each means TLS.
var mqttSchemes = map[string]bool{"tcp": false, "mqtt": false, "ssl": true, "tls": true, "mqtts": true}

// Default MQTT ports (IANA).
const (
	mqttPort    = "1883"
	mqttTLSPort = "8883"
)

// UsesTLS reports whether URL asks for MQTT over TLS.
func (m MQTT) UsesTLS() bool {
	u, err := url.Parse(m.URL)
	return err == nil && mqttSchemes[strings.ToLower(u.Scheme)]
}

// BrokerURL returns URL in the form the MQTT client takes: tcp://host:port
// or ssl://host:port, with the default port filled in. It returns "" when
// URL is unset or invalid (Validate reports the latter).
func (m MQTT) BrokerURL() string {
	u, err := parseMQTTURL(m.URL)
	if err != nil || m.URL == "" {
		return ""
	}
	return u.String()
}

// parseMQTTURL checks mqtt__url and returns its canonical form.
func parseMQTTURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, errorString("not a URL; use tcp://host:1883 or ssl://host:8883")
	}
	secure, ok := mqttSchemes[strings.ToLower(u.Scheme)]
	switch {
	case !ok:
		return nil, errorString("scheme must be tcp, mqtt, ssl, tls or mqtts (e.g. tcp://localhost:1883)")
	case u.User != nil:
		return nil, errorString("must not contain credentials; use mqtt__username and mqtt__password")
	case u.Hostname() == "":
		return nil, errorString("has no host name")
	case u.Path != "" && u.Path != "/", u.RawQuery != "", u.Fragment != "":
		return nil, errorString("must not have a path, query or fragment")
	}
	port := u.Port()
	if port == "" {
		port = mqttPort
		if secure {
			port = mqttTLSPort
		}
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > maxPort {
		return nil, errorString("port must be between 1 and 65535")
	}
	scheme := "tcp"
	if secure {
		scheme = "ssl"
	}
	return &url.URL{Scheme: scheme, Host: net.JoinHostPort(u.Hostname(), port)}, nil
}

// errorString is an error that is its text.
type errorString string

func (e errorString) Error() string { return string(e) }

// MQTTClientID returns mqtt__clientId, or when it is unset an id derived from
// what stays the same across restarts: "edgegrid" standalone,
// "edgegrid-<IOTEDGE_DEVICEID>-<IOTEDGE_MODULEID>" under IoT Edge.
func (c *Config) MQTTClientID() string {
	if c.MQTT.ClientID != "" {
		return c.MQTT.ClientID
	}
	if c.Mode() == ModeEdge {
		return "edgegrid-" + c.Edge.DeviceID + "-" + c.Edge.ModuleID
	}
	return "edgegrid"
}
