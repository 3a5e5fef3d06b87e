package hostconfig_test

import (
	"testing"

	"github.com/edgegrid/edgegrid/hostconfig"
)

func TestEnumsIgnoreCase(t *testing.T) {
	cases := map[string]struct {
		env  string
		get  func(*hostconfig.Config) any
		want any
	}{
		"tlsPolicy Strict":       {"inbound__serverAuth__tlsPolicy=Strict", func(c *hostconfig.Config) any { return c.Inbound.TLSPolicy }, hostconfig.TLSPolicyStrict},
		"tlsPolicy ENABLED":      {"inbound__serverAuth__tlsPolicy=ENABLED", func(c *hostconfig.Config) any { return c.Inbound.TLSPolicy }, hostconfig.TLSPolicyEnabled},
		"tlsPolicy disabled":     {"inbound__serverAuth__tlsPolicy=disabled", func(c *hostconfig.Config) any { return c.Inbound.TLSPolicy }, hostconfig.TLSPolicyDisabled},
		"server cert iotedge":    {"inbound__serverAuth__serverCert__source=iotedge", func(c *hostconfig.Config) any { return c.Inbound.ServerCertSource }, hostconfig.CertSourceIoTEdge},
		"client cert IOTEDGE":    {"inbound__clientAuth__clientCert__source=IOTEDGE", func(c *hostconfig.Config) any { return c.Inbound.ClientCertSource }, hostconfig.CertSourceIoTEdge},
		"outbound cert IoTEdge":  {"outbound__clientAuth__clientCert__source=IoTEdge", func(c *hostconfig.Config) any { return c.Outbound.ClientCertSource }, hostconfig.CertSourceIoTEdge},
		"reporter Prometheus":    {"metrics__reporterType=Prometheus", func(c *hostconfig.Config) any { return c.Metrics.ReporterType }, hostconfig.ReporterPrometheus},
		"reporter CONSOLE":       {"metrics__reporterType=CONSOLE", func(c *hostconfig.Config) any { return c.Metrics.ReporterType }, hostconfig.ReporterConsole},
		"reporter None":          {"metrics__reporterType=None", func(c *hostconfig.Config) any { return c.Metrics.ReporterType }, hostconfig.ReporterNone},
		"log level WARN":         {"log__level=WARN", func(c *hostconfig.Config) any { return c.Log.Level }, hostconfig.LevelWarn},
		"metadata NONE disables": {"broker__metadataDbPath=NONE", func(c *hostconfig.Config) any { return c.Broker.MetadataPath() }, ""},
		"metadata path kept":     {"broker__metadataDbPath=/data/meta", func(c *hostconfig.Config) any { return c.Broker.MetadataPath() }, "/data/meta"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := tc.get(mustLoad(t, tc.env)); got != tc.want {
				t.Errorf("%s: got %v, want %v", tc.env, got, tc.want)
			}
		})
	}
}

func TestTLSPolicyListeners(t *testing.T) {
	cases := map[string]struct {
		policy          hostconfig.TLSPolicy
		https, httpOnly bool
	}{
		"strict":          {hostconfig.TLSPolicyStrict, true, false},
		"enabled":         {hostconfig.TLSPolicyEnabled, true, true},
		"disabled":        {hostconfig.TLSPolicyDisabled, false, true},
		"set by hand, Up": {"Enabled", true, true},
		"invalid":         {"bogus", false, false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			in := hostconfig.Inbound{TLSPolicy: tc.policy}
			if in.ServeHTTPS() != tc.https || in.ServeHTTP() != tc.httpOnly {
				t.Errorf("ServeHTTPS, ServeHTTP = %v, %v; want %v, %v", in.ServeHTTPS(), in.ServeHTTP(), tc.https, tc.httpOnly)
			}
		})
	}
}

func TestBoolForms(t *testing.T) {
	cases := map[string]bool{
		"true": true, "True": true, "TRUE": true, "1": true, "t": true, "T": true,
		"false": false, "False": false, "FALSE": false, "0": false, "f": false, " false ": false,
	}
	for value, want := range cases {
		t.Run(value, func(t *testing.T) {
			cfg := mustLoad(t,
				"outbound__webhook__httpsOnly="+value,               // default true
				"outbound__eventgrid__allowInvalidHostnames="+value) // default false
			if cfg.Outbound.WebhookHTTPSOnly != want || cfg.Outbound.EventGridAllowInvalidHostnames != want {
				t.Errorf("%q: got %v and %v, want %v", value, cfg.Outbound.WebhookHTTPSOnly, cfg.Outbound.EventGridAllowInvalidHostnames, want)
			}
		})
	}
}

// TestIntegersAreDecimal: a leading zero does not switch to octal.
func TestIntegersAreDecimal(t *testing.T) {
	cases := map[string]struct {
		value string
		want  int
	}{
		"leading zero":   {"010", 10},
		"several zeros":  {"0007", 7},
		"plus sign":      {"+020", 20},
		"plain":          {"30", 30},
		"hex still read": {"0x10", 16},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg := mustLoad(t, "broker__defaultMaxDeliveryAttempts="+tc.value)
			if got := cfg.Broker.DefaultMaxDeliveryAttempts; got != tc.want {
				t.Errorf("%q: got %d, want %d", tc.value, got, tc.want)
			}
		})
	}
}
