package hostconfig_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/hostconfig"
)

// defaultCases is every setting's default as documented (edge-spec §5.1
// and the brief for the additions).
var defaultCases = map[string]struct {
	get  func(*hostconfig.Config) any
	want any
}{
	"inbound__serverAuth__tlsPolicy":                              {func(c *hostconfig.Config) any { return c.Inbound.TLSPolicy }, hostconfig.TLSPolicyStrict},
	"inbound__serverAuth__serverCert__source":                     {func(c *hostconfig.Config) any { return c.Inbound.ServerCertSource }, hostconfig.CertSourceIoTEdge},
	"inbound__clientAuth__clientCert__enabled":                    {func(c *hostconfig.Config) any { return c.Inbound.ClientCertEnabled }, true},
	"inbound__clientAuth__clientCert__source":                     {func(c *hostconfig.Config) any { return c.Inbound.ClientCertSource }, hostconfig.CertSourceIoTEdge},
	"inbound__clientAuth__clientCert__allowUnknownCA":             {func(c *hostconfig.Config) any { return c.Inbound.ClientCertAllowUnknownCA }, true},
	"inbound__clientAuth__sasKeys__enabled":                       {func(c *hostconfig.Config) any { return c.Inbound.SASKeysEnabled }, false},
	"inbound__clientAuth__sasKeys__key1":                          {func(c *hostconfig.Config) any { return c.Inbound.SASKey1 }, ""},
	"inbound__clientAuth__sasKeys__key2":                          {func(c *hostconfig.Config) any { return c.Inbound.SASKey2 }, ""},
	"inbound__httpsPort":                                          {func(c *hostconfig.Config) any { return c.Inbound.HTTPSPort }, 4438},
	"inbound__httpPort":                                           {func(c *hostconfig.Config) any { return c.Inbound.HTTPPort }, 5888},
	"inbound__bindAddress":                                        {func(c *hostconfig.Config) any { return c.Inbound.BindAddress }, ""},
	"inbound__serverAuth__serverCert__certFile":                   {func(c *hostconfig.Config) any { return c.Inbound.ServerCertFile }, ""},
	"inbound__serverAuth__serverCert__keyFile":                    {func(c *hostconfig.Config) any { return c.Inbound.ServerKeyFile }, ""},
	"outbound__clientAuth__clientCert__certFile":                  {func(c *hostconfig.Config) any { return c.Outbound.ClientCertFile }, ""},
	"outbound__clientAuth__clientCert__keyFile":                   {func(c *hostconfig.Config) any { return c.Outbound.ClientKeyFile }, ""},
	"outbound__clientAuth__clientCert__enabled":                   {func(c *hostconfig.Config) any { return c.Outbound.ClientCertEnabled }, true},
	"outbound__clientAuth__clientCert__source":                    {func(c *hostconfig.Config) any { return c.Outbound.ClientCertSource }, hostconfig.CertSourceIoTEdge},
	"outbound__webhook__httpsOnly":                                {func(c *hostconfig.Config) any { return c.Outbound.WebhookHTTPSOnly }, true},
	"outbound__webhook__skipServerCertValidation":                 {func(c *hostconfig.Config) any { return c.Outbound.WebhookSkipServerCertValidation }, false},
	"outbound__webhook__allowUnknownCA":                           {func(c *hostconfig.Config) any { return c.Outbound.WebhookAllowUnknownCA }, true},
	"outbound__eventgrid__httpsOnly":                              {func(c *hostconfig.Config) any { return c.Outbound.EventGridHTTPSOnly }, true},
	"outbound__eventgrid__allowInvalidHostnames":                  {func(c *hostconfig.Config) any { return c.Outbound.EventGridAllowInvalidHostnames }, false},
	"outbound__eventgrid__credential":                             {func(c *hostconfig.Config) any { return c.Outbound.EventGridCredential }, hostconfig.EntraAuto},
	"outbound__eventgrid__disableInstanceDiscovery":               {func(c *hostconfig.Config) any { return c.Outbound.EventGridDisableInstanceDiscovery }, false},
	"effective Entra ID credential":                               {func(c *hostconfig.Config) any { return c.EntraCredential() }, hostconfig.EntraNone},
	"broker__defaultMaxDeliveryAttempts":                          {func(c *hostconfig.Config) any { return c.Broker.DefaultMaxDeliveryAttempts }, 30},
	"broker__defaultEventTimeToLiveInSeconds":                     {func(c *hostconfig.Config) any { return c.Broker.DefaultEventTimeToLiveInSeconds }, 7200},
	"broker__defaultMaxBatchSizeInBytes":                          {func(c *hostconfig.Config) any { return c.Broker.DefaultMaxBatchSizeInBytes }, 1058576},
	"broker__defaultMaxEventsPerBatch":                            {func(c *hostconfig.Config) any { return c.Broker.DefaultMaxEventsPerBatch }, 10},
	"broker__logDeliverySuccess":                                  {func(c *hostconfig.Config) any { return c.Broker.LogDeliverySuccess }, false},
	"broker__metadataDbPath":                                      {func(c *hostconfig.Config) any { return c.Broker.MetadataDBPath }, "/app/metadataDb"},
	"broker__maxBufferedBytes":                                    {func(c *hostconfig.Config) any { return c.Broker.MaxBufferedBytes }, int64(134217728)},
	"broker__deliveryConcurrency":                                 {func(c *hostconfig.Config) any { return c.Broker.DeliveryConcurrency }, 8},
	"broker__shutdownGracePeriodInSeconds":                        {func(c *hostconfig.Config) any { return c.Broker.ShutdownGracePeriodInSeconds }, 8},
	"api__deliveryPolicyLimits__maxEventsPerBatch":                {func(c *hostconfig.Config) any { return c.API.MaxEventsPerBatch }, 50},
	"api__deliveryPolicyLimits__maxBatchSizeInBytes":              {func(c *hostconfig.Config) any { return c.API.MaxBatchSizeInBytes }, 1058576},
	"metrics__reporterType":                                       {func(c *hostconfig.Config) any { return c.Metrics.ReporterType }, hostconfig.ReporterNone},
	"log__level (effective)":                                      {func(c *hostconfig.Config) any { return c.LogLevel() }, "info"},
	"mode":                                                        {func(c *hostconfig.Config) any { return c.Mode() }, hostconfig.ModeStandalone},
	"standalone device":                                           {func(c *hostconfig.Config) any { return c.Edge.DeviceID }, "local"},
	"standalone module":                                           {func(c *hostconfig.Config) any { return c.Edge.ModuleID }, "eventgridmodule"},
	"standalone hub":                                              {func(c *hostconfig.Config) any { return c.Edge.IoTHubName() }, "local"},
	"TTL as a duration":                                           {func(c *hostconfig.Config) any { return c.Broker.DefaultEventTimeToLive() }, 2 * time.Hour},
	"grace period as a duration":                                  {func(c *hostconfig.Config) any { return c.Broker.ShutdownGracePeriod() }, 8 * time.Second},
	"metadata path":                                               {func(c *hostconfig.Config) any { return c.Broker.MetadataPath() }, "/app/metadataDb"},
	"serves HTTPS":                                                {func(c *hostconfig.Config) any { return c.Inbound.ServeHTTPS() }, true},
	"serves no HTTP":                                              {func(c *hostconfig.Config) any { return c.Inbound.ServeHTTP() }, false},
	"no warnings":                                                 {func(c *hostconfig.Config) any { return len(c.Warnings) }, 0},
	"api__deliveryPolicyLimits__maxpreferredBatchSizeInKilobytes": {func(c *hostconfig.Config) any { return c.API.MaxPreferredBatchSizeInKilobytes }, 1033},
}

func TestDefaults(t *testing.T) {
	loaded := mustLoad(t)
	for name, tc := range defaultCases {
		t.Run(name, func(t *testing.T) {
			if got := tc.get(loaded); got != tc.want {
				t.Errorf("Load(nil): got %v (%T), want %v (%T)", got, got, tc.want, tc.want)
			}
			if got := tc.get(hostconfig.Defaults()); got != tc.want {
				t.Errorf("Defaults(): got %v (%T), want %v (%T)", got, got, tc.want, tc.want)
			}
		})
	}
}

// TestDefaultsMatchLoad keeps the default tags (read by envconfig) and the
// named constants (used by Defaults) in step.
func TestDefaultsMatchLoad(t *testing.T) {
	if got, want := hostconfig.Defaults(), mustLoad(t); !reflect.DeepEqual(got, want) {
		t.Errorf("Defaults() = %+v\nLoad(nil) = %+v", got, want)
	}
	if err := hostconfig.Defaults().Validate(); err != nil {
		t.Errorf("Defaults().Validate() = %v", err)
	}
}
