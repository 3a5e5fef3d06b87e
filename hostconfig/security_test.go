package hostconfig_test

import (
	"strings"
	"testing"
)

func TestCertFilePairs(t *testing.T) {
	const (
		inCert  = "inbound__serverAuth__serverCert__certFile"
		inKey   = "inbound__serverAuth__serverCert__keyFile"
		outCert = "outbound__clientAuth__clientCert__certFile"
		outKey  = "outbound__clientAuth__clientCert__keyFile"
	)
	cases := map[string]struct {
		env      []string
		wantName string // "" when valid
	}{
		"server pair":      {[]string{inCert + "=/c.pem", inKey + "=/k.pem"}, ""},
		"server cert only": {[]string{inCert + "=/c.pem"}, inKey},
		"server key only":  {[]string{"inbound:serverAuth:serverCert:keyFile=/k.pem"}, inCert},
		"client pair":      {[]string{outCert + "=/c.pem", outKey + "=/k.pem"}, ""},
		"client cert only": {[]string{outCert + "=/c.pem"}, outKey},
		"client key only":  {[]string{outKey + "=/k.pem"}, outCert},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if tc.wantName == "" {
				mustLoad(t, tc.env...)
				return
			}
			e := loadErr(t, tc.env...)
			if len(e.Problems) != 1 || e.Problems[0].Name != tc.wantName || !strings.Contains(e.Problems[0].Reason, "missing") {
				t.Errorf("got %v, want one problem: %s missing", e, tc.wantName)
			}
		})
	}
}

func TestSecurityWarnings(t *testing.T) {
	edge := []string{"IOTEDGE_WORKLOADURI=unix:///var/run/iotedge/workload.sock", "IOTEDGE_MODULEID=m",
		"IOTEDGE_DEVICEID=d", "IOTEDGE_IOTHUBHOSTNAME=h.azure-devices.net", "IOTEDGE_MODULEGENERATIONID=g", "IOTEDGE_GATEWAYHOSTNAME=gw"}
	cases := map[string]struct {
		env  []string
		want []string // substrings of one warning; nil: no warning
	}{
		"edge ignores server files": {append(edge, "inbound__serverAuth__serverCert__certFile=/c", "inbound__serverAuth__serverCert__keyFile=/k"),
			[]string{"inbound__serverAuth__serverCert__certFile", "ignored in IoT Edge mode"}},
		"edge ignores client files": {append(edge, "outbound__clientAuth__clientCert__certFile=/c", "outbound__clientAuth__clientCert__keyFile=/k"),
			[]string{"outbound__clientAuth__clientCert__certFile", "ignored in IoT Edge mode"}},
		"client files, presenting off": {[]string{"outbound__clientAuth__clientCert__enabled=false",
			"outbound__clientAuth__clientCert__certFile=/c", "outbound__clientAuth__clientCert__keyFile=/k"},
			[]string{"no certificate is presented"}},
		"no bundle outside edge": {[]string{"inbound__clientAuth__clientCert__allowUnknownCA=false"},
			[]string{"every client certificate is refused"}},
		"no bundle, HTTP only": {[]string{"inbound__clientAuth__clientCert__allowUnknownCA=false", "inbound__clientAuth__clientCert__enabled=false",
			"inbound__serverAuth__tlsPolicy=disabled"}, nil},
		"certificates over HTTP": {[]string{"inbound__serverAuth__tlsPolicy=enabled"}, []string{"API calls over HTTP are refused with 401"}},
		"SAS over HTTP": {[]string{"inbound__serverAuth__tlsPolicy=disabled", "inbound__clientAuth__sasKeys__enabled=true",
			"inbound__clientAuth__sasKeys__key1=k"}, nil},
		"bundle in edge":        {append(edge, "inbound__clientAuth__clientCert__allowUnknownCA=false"), nil},
		"standalone with files": {[]string{"inbound__serverAuth__serverCert__certFile=/c", "inbound__serverAuth__serverCert__keyFile=/k"}, nil},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg := mustLoad(t, tc.env...)
			if tc.want == nil {
				if len(cfg.Warnings) != 0 {
					t.Errorf("warnings %q, want none", cfg.Warnings)
				}
				return
			}
			if !warningsMention(cfg.Warnings, tc.want...) {
				t.Errorf("warnings %q, want one mentioning %q", cfg.Warnings, tc.want)
			}
		})
	}
}
