package hostconfig

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// validateMQTT checks the MQTT section. The files are read here too, so a
// missing or broken one stops the module at start.
func validateMQTT(m MQTT) []Problem {
	var p problems
	p.inRange("mqtt__maxMessageSizeInBytes", int64(m.MaxMessageSizeInBytes), minMQTTMessageSize, maxMQTTMessageSize, "")
	if m.URL != "" {
		if _, err := parseMQTTURL(m.URL); err != nil {
			p = append(p, Problem{Name: "mqtt__url", Value: m.URL, Reason: err.Error()})
		}
	}
	if m.ClientID != "" {
		if reason := checkClientID(m.ClientID); reason != "" {
			p = append(p, Problem{Name: "mqtt__clientId", Value: m.ClientID, Reason: reason})
		}
	}
	if m.Password != "" && m.Username == "" {
		p = append(p, Problem{Name: "mqtt__username", Reason: "missing; mqtt__password is set, and MQTT 3.1.1 sends a password only with a user name"})
	}
	if (m.CertFile == "") != (m.KeyFile == "") {
		p = append(p, Problem{Name: "mqtt__certFile, mqtt__keyFile", Reason: "set both or neither"})
	}
	p.add(m.tlsFileProblems())
	return p
}

// tlsFileProblems checks the TLS files: loadable, and only with ssl:// URLs.
func (m MQTT) tlsFileProblems() []Problem {
	if m.URL == "" || m.UsesTLS() {
		_, probs := m.tlsConfig()
		return probs
	}
	var p []Problem
	for _, f := range []struct{ name, value string }{{"mqtt__caFile", m.CAFile}, {"mqtt__certFile", m.CertFile}, {"mqtt__keyFile", m.KeyFile}} {
		if f.value != "" {
			p = append(p, Problem{Name: f.name, Value: f.value,
				Reason: "applies only to MQTT over TLS, but mqtt__url is not ssl://, tls:// or mqtts://"})
		}
	}
	return p
}

// checkClientID returns why id cannot be an MQTT client id, or "".
func checkClientID(id string) string {
	if len(id) > maxMQTTClientID {
		return "longer than 256 bytes"
	}
	if !utf8.ValidString(id) {
		return "not valid UTF-8"
	}
	for _, c := range id {
		if unicode.IsControl(c) {
			return "contains a control character"
		}
	}
	return ""
}

// lintMQTT warns about MQTT settings that have no effect without mqtt__url.
func lintMQTT(m MQTT) []string {
	if m.URL != "" {
		return nil
	}
	var set []string
	for _, f := range []struct{ name, value string }{
		{"mqtt__routes", m.Routes.String()}, {"mqtt__clientId", m.ClientID}, {"mqtt__username", m.Username}, {"mqtt__password", m.Password},
		{"mqtt__caFile", m.CAFile}, {"mqtt__certFile", m.CertFile}, {"mqtt__keyFile", m.KeyFile},
	} {
		if f.value != "" {
			set = append(set, f.name)
		}
	}
	if len(set) == 0 {
		return nil
	}
	return []string{strings.Join(set, ", ") + " set but mqtt__url is not; MQTT ingest and the Mqtt destination are off"}
}
