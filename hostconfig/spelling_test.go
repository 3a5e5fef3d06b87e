package hostconfig_test

import (
	"os"
	"testing"

	"github.com/edgegrid/edgegrid/hostconfig"
)

// spellingCases set one variable in a spelling manifests use and read it
// back.
var spellingCases = map[string]struct {
	key, value string
	get        func(*hostconfig.Config) any
	want       any
	warns      bool // a warning is expected (a setting without effect)
}{
	"double underscore, documented case": {"broker__defaultMaxDeliveryAttempts", "3",
		func(c *hostconfig.Config) any { return c.Broker.DefaultMaxDeliveryAttempts }, 3, false},
	"colon form": {"outbound:webhook:httpsOnly", "false",
		func(c *hostconfig.Config) any { return c.Outbound.WebhookHTTPSOnly }, false, false},
	"brokers alias": {"brokers__defaultMaxDeliveryAttempts", "5",
		func(c *hostconfig.Config) any { return c.Broker.DefaultMaxDeliveryAttempts }, 5, false},
	"brokers alias, colon form": {"brokers:defaultMaxEventsPerBatch", "7",
		func(c *hostconfig.Config) any { return c.Broker.DefaultMaxEventsPerBatch }, 7, false},
	"colon form, lower case": {"metrics:reportertype", "prometheus",
		func(c *hostconfig.Config) any { return c.Metrics.ReporterType }, hostconfig.ReporterPrometheus, false},
	"mixed separators": {"inbound__clientAuth:clientCert__enabled", "false",
		func(c *hostconfig.Config) any { return c.Inbound.ClientCertEnabled }, false, false},
	"upper case": {"BROKER__DEFAULTEVENTTIMETOLIVEINSECONDS", "60",
		func(c *hostconfig.Config) any { return c.Broker.DefaultEventTimeToLiveInSeconds }, 60, false},
	"lower case": {"broker__logdeliverysuccess", "true",
		func(c *hostconfig.Config) any { return c.Broker.LogDeliverySuccess }, true, false},
	"lower-case p as documented": {"api__deliveryPolicyLimits__maxpreferredBatchSizeInKilobytes", "64",
		func(c *hostconfig.Config) any { return c.API.MaxPreferredBatchSizeInKilobytes }, 64, false},
	"upper-case P": {"api__deliveryPolicyLimits__maxPreferredBatchSizeInKilobytes", "65",
		func(c *hostconfig.Config) any { return c.API.MaxPreferredBatchSizeInKilobytes }, 65, false},
	"secret key, colon form": {"inbound:clientAuth:sasKeys:key2", "k2",
		func(c *hostconfig.Config) any { return c.Inbound.SASKey2 }, "k2", true},
	"IoT Edge name in lower case": {"iotedge_gatewayhostname", "gw",
		func(c *hostconfig.Config) any { return c.Edge.GatewayHostname }, "gw", false},
	"RuntimeLogLevel upper case": {"RUNTIMELOGLEVEL", "Warning",
		func(c *hostconfig.Config) any { return c.LogLevel() }, "warn", false},
	"addition, any case": {"Inbound__HttpsPort", "0",
		func(c *hostconfig.Config) any { return c.Inbound.HTTPSPort }, 0, false},
}

// TestSpellingsFromProcessEnv sets the exact mixed-case names in the process
// environment, as IoT Edge does, and loads os.Environ().
func TestSpellingsFromProcessEnv(t *testing.T) {
	for name, tc := range spellingCases {
		t.Run(name, func(t *testing.T) {
			t.Setenv(tc.key, tc.value)
			cfg := mustLoad(t, os.Environ()...)
			if got := tc.get(cfg); got != tc.want {
				t.Errorf("%s=%s: got %v, want %v", tc.key, tc.value, got, tc.want)
			}
		})
	}
}

func TestSpellingsFromSlice(t *testing.T) {
	for name, tc := range spellingCases {
		t.Run(name, func(t *testing.T) {
			cfg := mustLoad(t, tc.key+"="+tc.value)
			if got := tc.get(cfg); got != tc.want {
				t.Errorf("%s=%s: got %v, want %v", tc.key, tc.value, got, tc.want)
			}
			if got := len(cfg.Warnings) != 0; got != tc.warns {
				t.Errorf("warnings %q, want some: %v", cfg.Warnings, tc.warns)
			}
		})
	}
}

// TestLoadIgnoresProcessEnv proves the result depends on the slice only,
// even when the process holds the canonical upper-case name envconfig reads.
func TestLoadIgnoresProcessEnv(t *testing.T) {
	t.Setenv("BROKER__DEFAULTMAXDELIVERYATTEMPTS", "77")
	t.Setenv("IOTEDGE_WORKLOADURI", "unix:///nowhere.sock")
	cases := map[string]struct {
		env  []string
		want int
	}{
		"empty slice":         {nil, 30},
		"slice sets it":       {[]string{"broker__defaultMaxDeliveryAttempts=4"}, 4},
		"slice sets other":    {[]string{"broker__defaultMaxEventsPerBatch=4"}, 30},
		"slice empties value": {[]string{"BROKER__DEFAULTMAXDELIVERYATTEMPTS="}, 30},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg := mustLoad(t, tc.env...)
			if got := cfg.Broker.DefaultMaxDeliveryAttempts; got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
			if cfg.Mode() != hostconfig.ModeStandalone {
				t.Errorf("mode %v leaked from the process environment", cfg.Mode())
			}
		})
	}
}
