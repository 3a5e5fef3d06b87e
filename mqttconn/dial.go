// Package mqttconn opens the network connections of edgegrid's MQTT clients
// (ingest and the Mqtt destination) for paho's custom-dialer hook. Dialing
// ourselves lets each client know which connection is current: the ingest
// drops it to make the MQTT broker resend unacknowledged messages, the
// destination counts connections to spot a publish that spanned a reconnect.
package mqttconn

import (
	"crypto/tls"
	"net"
	"net/url"
	"strings"
	"time"
)

// IsTLS reports whether a broker URL scheme means MQTT over TLS: ssl, tls
// or mqtts (any case). tcp and mqtt are plain.
func IsTLS(scheme string) bool {
	switch strings.ToLower(scheme) {
	case "ssl", "tls", "mqtts":
		return true
	}
	return false
}

// KnownScheme reports whether scheme is one of tcp, mqtt, ssl, tls, mqtts.
func KnownScheme(scheme string) bool {
	return IsTLS(scheme) || strings.EqualFold(scheme, "tcp") || strings.EqualFold(scheme, "mqtt")
}

// Dial connects to uri.Host (host:port) within timeout, with TLS for TLS
// schemes. A nil cfg means TLS 1.2 or later with the system's roots; the
// server name defaults to the host dialled.
func Dial(uri *url.URL, timeout time.Duration, cfg *tls.Config) (net.Conn, error) {
	d := &net.Dialer{Timeout: timeout}
	if !IsTLS(uri.Scheme) {
		return d.Dial("tcp", uri.Host)
	}
	if cfg == nil {
		cfg = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	return (&tls.Dialer{NetDialer: d, Config: cfg}).Dial("tcp", uri.Host)
}

// Source names a broker URL as a CloudEvents source: mqtt://host:port, or
// mqtts://host:port for TLS.
func Source(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "mqtt://localhost"
	}
	if IsTLS(u.Scheme) {
		return "mqtts://" + u.Host
	}
	return "mqtt://" + u.Host
}
