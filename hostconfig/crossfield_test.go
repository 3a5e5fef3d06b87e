package hostconfig_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/hostconfig"
)

func TestCrossFieldRules(t *testing.T) {
	const (
		sasOn    = "inbound__clientAuth__sasKeys__enabled=true"
		both     = "inbound__clientAuth__sasKeys__key1, inbound__clientAuth__sasKeys__key2"
		policyOn = "inbound__serverAuth__tlsPolicy=enabled"
	)
	cases := map[string]struct {
		env      []string
		wantName string // "" when the configuration is valid
		wantText string // substring of the reason
	}{
		"SAS on, no key":          {[]string{sasOn}, both, "at least one key"},
		"SAS on, key1":            {[]string{sasOn, "inbound__clientAuth__sasKeys__key1=k"}, "", ""},
		"SAS on, key2 only":       {[]string{sasOn, "inbound__clientAuth__sasKeys__key2=k"}, "", ""},
		"SAS off, no key":         {[]string{"inbound__clientAuth__sasKeys__enabled=false"}, "", ""},
		"both listeners, 1 port":  {[]string{policyOn, "inbound__httpPort=4438"}, "inbound__httpPort", "equals inbound__httpsPort"},
		"both listeners, port 0":  {[]string{policyOn, "inbound__httpPort=0", "inbound__httpsPort=0"}, "", ""},
		"both listeners, default": {[]string{policyOn}, "", ""},
		"strict, same ports":      {[]string{"inbound__httpPort=4438"}, "", ""},
		"disabled, same ports":    {[]string{"inbound__serverAuth__tlsPolicy=disabled", "inbound__httpsPort=5888"}, "", ""},
		"batch default above API": {[]string{"broker__defaultMaxEventsPerBatch=20", "api__deliveryPolicyLimits__maxEventsPerBatch=10"},
			"broker__defaultMaxEventsPerBatch", "between 1 and 10 (at most api__deliveryPolicyLimits__maxEventsPerBatch)"},
		"batch default at API":    {[]string{"broker__defaultMaxEventsPerBatch=100", "api__deliveryPolicyLimits__maxEventsPerBatch=100"}, "", ""},
		"bind IPv4":               {[]string{"inbound__bindAddress=127.0.0.1"}, "", ""},
		"bind IPv6":               {[]string{"inbound__bindAddress=::1"}, "", ""},
		"bind host name":          {[]string{"inbound__bindAddress=localhost"}, "inbound__bindAddress", "not an IP address"},
		"bind with port":          {[]string{"inbound__bindAddress=127.0.0.1:80"}, "inbound__bindAddress", "not an IP address"},
		"log level unknown":       {[]string{"log__level=verbose"}, "log__level", "must be one of trace"},
		"RuntimeLogLevel unknown": {[]string{"RuntimeLogLevel=loud"}, "", ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if tc.wantName == "" {
				mustLoad(t, tc.env...)
				return
			}
			e := loadErr(t, tc.env...)
			if len(e.Problems) != 1 || e.Problems[0].Name != tc.wantName || !strings.Contains(e.Problems[0].Reason, tc.wantText) {
				t.Errorf("got %v, want one problem for %s mentioning %q", e, tc.wantName, tc.wantText)
			}
		})
	}
}

// TestValidateByHand checks a Config built in code, as other packages'
// tests do.
func TestValidateByHand(t *testing.T) {
	cases := map[string]struct {
		edit      func(*hostconfig.Config)
		wantNames []string
	}{
		"defaults":          {func(*hostconfig.Config) {}, nil},
		"enum in any case":  {func(c *hostconfig.Config) { c.Inbound.TLSPolicy = "Enabled" }, nil},
		"unknown enum":      {func(c *hostconfig.Config) { c.Metrics.ReporterType = "graphite" }, []string{"metrics__reporterType"}},
		"empty cert source": {func(c *hostconfig.Config) { c.Outbound.ClientCertSource = "" }, []string{"outbound__clientAuth__clientCert__source"}},
		"two bad ranges": {func(c *hostconfig.Config) {
			c.Broker.DeliveryConcurrency = 0
			c.API.MaxBatchSizeInBytes = 1
		}, []string{"api__deliveryPolicyLimits__maxBatchSizeInBytes", "broker__deliveryConcurrency"}},
		"metadata off by empty string": {func(c *hostconfig.Config) { c.Broker.MetadataDBPath = "" }, nil},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg := hostconfig.Defaults()
			tc.edit(cfg)
			err := cfg.Validate()
			var e *hostconfig.Error
			switch {
			case tc.wantNames == nil && err != nil:
				t.Errorf("Validate() = %v, want nil", err)
			case tc.wantNames != nil && !errors.As(err, &e):
				t.Errorf("Validate() = %v, want *Error", err)
			case tc.wantNames != nil && !slices.Equal(problemNames(e), tc.wantNames):
				t.Errorf("problems %q, want %q", problemNames(e), tc.wantNames)
			}
		})
	}
}

// TestSecretsNeverShown makes a secret fail and checks its value stays out
// of the error.
func TestSecretsNeverShown(t *testing.T) {
	e := loadErr(t, "inbound__clientAuth__sasKeys__enabled=true", "inbound:clientAuth:sasKeys:key1=top\x00secret")
	if strings.Contains(e.Error(), "top") || strings.Contains(e.Error(), "secret") {
		t.Errorf("error shows the secret: %v", e)
	}
	want := `inbound__clientAuth__sasKeys__key1="***" (set as inbound:clientAuth:sasKeys:key1): contains a NUL byte`
	if len(e.Problems) != 1 || e.Problems[0].String() != want {
		t.Errorf("error %q, want the one problem %q", e, want)
	}
}
