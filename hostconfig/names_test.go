package hostconfig_test

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/hostconfig"
)

// documentedNames is the brief's list of variables, spelt as documented.
var documentedNames = []string{
	"inbound__serverAuth__tlsPolicy", "inbound__serverAuth__serverCert__source",
	"inbound__clientAuth__clientCert__enabled", "inbound__clientAuth__clientCert__source",
	"inbound__clientAuth__clientCert__allowUnknownCA", "inbound__clientAuth__sasKeys__enabled",
	"inbound__clientAuth__sasKeys__key1", "inbound__clientAuth__sasKeys__key2",
	"inbound__httpsPort", "inbound__httpPort", "inbound__bindAddress",
	"inbound__serverAuth__serverCert__certFile", "inbound__serverAuth__serverCert__keyFile",
	"outbound__clientAuth__clientCert__certFile", "outbound__clientAuth__clientCert__keyFile",
	"outbound__clientAuth__clientCert__enabled", "outbound__clientAuth__clientCert__source",
	"outbound__webhook__httpsOnly", "outbound__webhook__skipServerCertValidation",
	"outbound__webhook__allowUnknownCA", "outbound__eventgrid__httpsOnly",
	"outbound__eventgrid__allowInvalidHostnames", "outbound__eventgrid__credential",
	"outbound__eventgrid__disableInstanceDiscovery",
	"broker__defaultMaxDeliveryAttempts", "broker__defaultEventTimeToLiveInSeconds",
	"broker__defaultMaxBatchSizeInBytes", "broker__defaultMaxEventsPerBatch", "broker__logDeliverySuccess",
	"broker__metadataDbPath", "broker__maxBufferedBytes", "broker__deliveryConcurrency",
	"broker__shutdownGracePeriodInSeconds",
	"api__deliveryPolicyLimits__maxEventsPerBatch", "api__deliveryPolicyLimits__maxpreferredBatchSizeInKilobytes",
	"api__deliveryPolicyLimits__maxBatchSizeInBytes",
	"metrics__reporterType", "log__level", "RuntimeLogLevel",
	"IOTEDGE_WORKLOADURI", "IOTEDGE_MODULEID", "IOTEDGE_DEVICEID", "IOTEDGE_IOTHUBHOSTNAME",
	"IOTEDGE_GATEWAYHOSTNAME", "IOTEDGE_MODULEGENERATIONID", "IOTEDGE_APIVERSION",
	"IOTEDGE_AUTHSCHEME", "IOTEDGE_PARENTHOSTNAME",
	"AZURE_TENANT_ID", "AZURE_CLIENT_ID", "AZURE_CLIENT_SECRET", "AZURE_CLIENT_CERTIFICATE_PATH",
	"AZURE_CLIENT_CERTIFICATE_PASSWORD", "AZURE_CLIENT_SEND_CERTIFICATE_CHAIN", "AZURE_FEDERATED_TOKEN_FILE",
	"AZURE_AUTHORITY_HOST", "IDENTITY_ENDPOINT",
	"edgeHub__address", "edgeHub__inputRoutes",
}

func TestNames(t *testing.T) {
	got := slices.Sorted(slices.Values(hostconfig.Names()))
	want := slices.Sorted(slices.Values(documentedNames))
	if !slices.Equal(got, want) {
		t.Errorf("Names() = %q\nwant %q", got, want)
	}
	names := hostconfig.Names()
	names[0] = "changed"
	if hostconfig.Names()[0] == "changed" {
		t.Error("Names() returns its internal slice")
	}
}

func TestIsKnown(t *testing.T) {
	cases := map[string]bool{
		"broker__defaultMaxDeliveryAttempts":      true,
		"BROKER__DEFAULTMAXDELIVERYATTEMPTS":      true,
		"brokers__defaultMaxDeliveryAttempts":     true,
		"broker:defaultMaxDeliveryAttempts":       true,
		"inbound__clientAuth:clientCert__enabled": true,
		"metrics:reportertype":                    true,
		"iotedge_workloaduri":                     true,
		"runtimeloglevel":                         true,
		"broker__defaultMaxDeliveryAttempt":       false,
		"broker_defaultMaxDeliveryAttempts":       false,
		"broker::defaultMaxDeliveryAttempts":      false,
		"PATH":                                    false,
		"":                                        false,
		"mqtt__routes":                            false,
	}
	for name, want := range cases {
		t.Run(name, func(t *testing.T) {
			if got := hostconfig.IsKnown(name); got != want {
				t.Errorf("IsKnown(%q) = %v, want %v", name, got, want)
			}
		})
	}
}

func TestUsage(t *testing.T) {
	var buf bytes.Buffer
	if err := hostconfig.Usage(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	cases := map[string]string{
		"documented spelling with default": "broker__defaultMaxDeliveryAttempts ",
		"default value":                    " 1058576 ",
		"enum values":                      "strict|enabled|disabled",
		"secret marked":                    "(secret)",
		"addition marked":                  "[edgegrid addition]",
		"IoT Edge name":                    "IOTEDGE_WORKLOADURI ",
	}
	for name, want := range cases {
		t.Run(name, func(t *testing.T) {
			if !strings.Contains(out, want) {
				t.Errorf("Usage output lacks %q:\n%s", want, out)
			}
		})
	}
	for _, n := range hostconfig.Names() {
		if !strings.Contains(out, "\n"+n+" ") {
			t.Errorf("Usage output lacks a row for %s", n)
		}
	}
	if strings.Contains(out, "BROKER__") {
		t.Error("Usage shows the upper-case spelling")
	}
}

func TestSummary(t *testing.T) {
	cases := map[string]struct {
		env        []string
		key1, key2 string
	}{
		"keys unset":  {nil, "", ""},
		"key1 set":    {[]string{"inbound__clientAuth__sasKeys__enabled=true", "inbound__clientAuth__sasKeys__key1=hunter2"}, "***", ""},
		"both set":    {[]string{"inbound__clientAuth__sasKeys__enabled=true", "inbound:clientAuth:sasKeys:key1=hunter2", "INBOUND__CLIENTAUTH__SASKEYS__KEY2=hunter3"}, "***", "***"},
		"set, unused": {[]string{"inbound__clientAuth__sasKeys__key2=hunter3"}, "", "***"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sum := mustLoad(t, tc.env...).Summary()
			if got := sum["inbound__clientAuth__sasKeys__key1"]; got != tc.key1 {
				t.Errorf("key1 = %q, want %q", got, tc.key1)
			}
			if got := sum["inbound__clientAuth__sasKeys__key2"]; got != tc.key2 {
				t.Errorf("key2 = %q, want %q", got, tc.key2)
			}
			for k, v := range sum {
				if strings.Contains(v, "hunter") {
					t.Errorf("Summary shows the secret in %s", k)
				}
			}
			if got := slices.Sorted(maps.Keys(sum)); !slices.Equal(got, slices.Sorted(slices.Values(hostconfig.Names()))) {
				t.Errorf("Summary keys %q differ from Names()", got)
			}
			if sum["broker__defaultMaxDeliveryAttempts"] != "30" || sum["inbound__serverAuth__tlsPolicy"] != "strict" {
				t.Errorf("Summary values wrong: %v", sum)
			}
		})
	}
}
