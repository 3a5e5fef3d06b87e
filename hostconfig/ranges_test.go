package hostconfig_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/hostconfig"
)

// rangeCases list every numeric setting's boundaries: the values just inside
// must load, the values just outside must fail naming the variable.
var rangeCases = map[string]struct {
	valid   []string
	invalid []string
	extra   []string // other variables the case needs
}{
	"broker__defaultMaxDeliveryAttempts":      {valid: []string{"1", "100"}, invalid: []string{"0", "101", "-1"}},
	"broker__defaultEventTimeToLiveInSeconds": {valid: []string{"1", "86400"}, invalid: []string{"0", "86401"}},
	"broker__defaultMaxBatchSizeInBytes":      {valid: []string{"1024", "1058576"}, invalid: []string{"1023", "1058577"}},
	"broker__defaultMaxEventsPerBatch":        {valid: []string{"1", "50"}, invalid: []string{"0", "51"}},
	"broker__maxBufferedBytes":                {valid: []string{"1048576", "1099511627776"}, invalid: []string{"1048575", "1099511627777"}},
	"broker__deliveryConcurrency":             {valid: []string{"1", "256"}, invalid: []string{"0", "257"}},
	"broker__shutdownGracePeriodInSeconds":    {valid: []string{"0", "600"}, invalid: []string{"-1", "601"}},
	"api__deliveryPolicyLimits__maxEventsPerBatch": {valid: []string{"10", "5000"}, invalid: []string{"0", "5001"},
		extra: []string{"broker__defaultMaxEventsPerBatch=1"}},
	"api__deliveryPolicyLimits__maxpreferredBatchSizeInKilobytes": {valid: []string{"1", "1033"}, invalid: []string{"0", "1034"}},
	"api__deliveryPolicyLimits__maxBatchSizeInBytes":              {valid: []string{"1024", "1058576"}, invalid: []string{"1023", "1058577"}},
	"inbound__httpsPort": {valid: []string{"0", "65535"}, invalid: []string{"-1", "65536"}},
	"inbound__httpPort":  {valid: []string{"0", "65535"}, invalid: []string{"-1", "65536"}},
}

func TestRangeBoundaries(t *testing.T) {
	for name, tc := range rangeCases {
		for _, v := range tc.valid {
			t.Run(name+"="+v, func(t *testing.T) {
				cfg := mustLoad(t, append([]string{name + "=" + v}, tc.extra...)...)
				if got := cfg.Summary()[name]; got != v {
					t.Errorf("loaded %s as %q, want %q", name, got, v)
				}
			})
		}
		for _, v := range tc.invalid {
			t.Run(name+"="+v, func(t *testing.T) {
				e := loadErr(t, append([]string{name + "=" + v}, tc.extra...)...)
				want := name + `="` + v + `": must be between`
				if len(e.Problems) != 1 || !strings.HasPrefix(e.Problems[0].String(), want) {
					t.Errorf("error %q, want exactly one problem starting %q", e, want)
				}
			})
		}
	}
}

// TestParseErrors checks the exact wording for values envconfig cannot decode.
func TestParseErrors(t *testing.T) {
	cases := map[string]struct {
		env  string
		want string
	}{
		"brokers alias, not a number": {"brokers__defaultMaxDeliveryAttempts=abc",
			`invalid config: broker__defaultMaxDeliveryAttempts="abc" (set as brokers__defaultMaxDeliveryAttempts): not a whole number`},
		"documented spelling": {"broker__defaultMaxDeliveryAttempts=3.5",
			`invalid config: broker__defaultMaxDeliveryAttempts="3.5": not a whole number`},
		"too large for int64": {"broker__maxBufferedBytes=99999999999999999999",
			`invalid config: broker__maxBufferedBytes="99999999999999999999": whole number out of range`},
		"not a boolean, colon form": {"outbound:webhook:httpsOnly=yes",
			`invalid config: outbound__webhook__httpsOnly="yes" (set as outbound:webhook:httpsOnly): not a boolean (use true or false)`},
		"unknown enum value": {"INBOUND__SERVERAUTH__TLSPOLICY=on",
			`invalid config: inbound__serverAuth__tlsPolicy="on" (set as INBOUND__SERVERAUTH__TLSPOLICY): must be one of strict, enabled, disabled (any case)`},
		"unknown cert source": {"inbound__serverAuth__serverCert__source=file",
			`invalid config: inbound__serverAuth__serverCert__source="file": must be one of IoTEdge (any case)`},
		"unknown reporter": {"metrics:reportertype=statsd",
			`invalid config: metrics__reporterType="statsd" (set as metrics:reportertype): must be one of none, prometheus, console (any case)`},
		"blanks around the value are trimmed": {"broker__deliveryConcurrency=  x  ",
			`invalid config: broker__deliveryConcurrency="x": not a whole number`},
		"long values are shortened": {"inbound__bindAddress=" + strings.Repeat("a", 100),
			`invalid config: inbound__bindAddress="` + strings.Repeat("a", 64) + `…": not an IP address (e.g. 0.0.0.0, 127.0.0.1, ::1)`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := loadErr(t, tc.env).Error(); got != tc.want {
				t.Errorf("error\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestEveryProblemReported gives several bad values at once: all are
// reported, sorted by name, and a value that failed to parse does not also
// fail a cross-field check against its substituted default.
func TestEveryProblemReported(t *testing.T) {
	e := loadErr(t,
		"metrics__reporterType=bogus",
		"broker__defaultMaxEventsPerBatch=many",
		"api__deliveryPolicyLimits__maxEventsPerBatch=5",
		"brokers__defaultMaxDeliveryAttempts=0",
		"inbound__clientAuth__clientCert__enabled=maybe",
		"IOTEDGE_WORKLOADURI=unix:///var/run/iotedge/workload.sock",
	)
	want := []string{
		"IOTEDGE_MODULEID, IOTEDGE_DEVICEID, IOTEDGE_IOTHUBHOSTNAME, IOTEDGE_MODULEGENERATIONID",
		"broker__defaultMaxDeliveryAttempts",
		"broker__defaultMaxEventsPerBatch",
		"inbound__clientAuth__clientCert__enabled",
		"metrics__reporterType",
	}
	if got := problemNames(e); !slices.Equal(got, want) {
		t.Errorf("problems for %q\n got %q\nwant %q", e, got, want)
	}
	if e.Problems[1].SetAs != "brokers__defaultMaxDeliveryAttempts" {
		t.Errorf("SetAs = %q, want the user's spelling", e.Problems[1].SetAs)
	}
}

// TestEveryVariableReportedAtOnce sets every known name to junk: every
// variable that does not take free text must be reported, in one error.
func TestEveryVariableReportedAtOnce(t *testing.T) {
	freeText := []string{
		"inbound__clientAuth__sasKeys__key1", "inbound__clientAuth__sasKeys__key2",
		"broker__metadataDbPath", "RuntimeLogLevel", "IOTEDGE_MODULEID", "IOTEDGE_DEVICEID",
		"IOTEDGE_IOTHUBHOSTNAME", "IOTEDGE_GATEWAYHOSTNAME", "IOTEDGE_MODULEGENERATIONID",
		"IOTEDGE_APIVERSION", "IOTEDGE_PARENTHOSTNAME",
		"inbound__serverAuth__serverCert__certFile", "inbound__serverAuth__serverCert__keyFile",
		"outbound__clientAuth__clientCert__certFile", "outbound__clientAuth__clientCert__keyFile",
		"AZURE_TENANT_ID", "AZURE_CLIENT_ID", "AZURE_CLIENT_SECRET", "AZURE_CLIENT_CERTIFICATE_PATH",
		"AZURE_CLIENT_CERTIFICATE_PASSWORD", "AZURE_FEDERATED_TOKEN_FILE", "IDENTITY_ENDPOINT",
	}
	e := loadErr(t, junkForEveryName()...)
	got := problemNames(e)
	for _, name := range hostconfig.Names() {
		if want := !slices.Contains(freeText, name); slices.Contains(got, name) != want {
			t.Errorf("%s reported: %v, want %v", name, !want, want)
		}
	}
	if !slices.IsSorted(got) {
		t.Errorf("problems not sorted: %q", got)
	}
}
