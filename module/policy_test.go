package main

import (
	"strconv"
	"testing"
)

// TestTLSPolicies: which ports answer, with which protocol, under each
// inbound__serverAuth__tlsPolicy (edge-spec §6.1).
func TestTLSPolicies(t *testing.T) {
	cases := map[string]struct{ https, http string }{
		"strict":   {"https", "refused"},
		"Enabled":  {"https", "http"},
		"disabled": {"refused", "http"},
	}
	for policy, want := range cases {
		t.Run(policy, func(t *testing.T) {
			ports := freePorts(t, 2)
			startModule(t, seams{}, "inbound__serverAuth__tlsPolicy="+policy, "inbound__clientAuth__clientCert__enabled=false",
				"inbound__httpsPort="+strconv.Itoa(ports[0]), "inbound__httpPort="+strconv.Itoa(ports[1]))
			if got := probe(t, ports[0]); got != want.https {
				t.Errorf("HTTPS port: %s, want %s", got, want.https)
			}
			if got := probe(t, ports[1]); got != want.http {
				t.Errorf("HTTP port: %s, want %s", got, want.http)
			}
		})
	}
}
