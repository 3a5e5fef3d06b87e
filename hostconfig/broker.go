package hostconfig

import (
	"strings"
	"time"
)

// Broker holds delivery defaults and resource limits.
type Broker struct {
	// DefaultMaxDeliveryAttempts is broker__defaultMaxDeliveryAttempts (also
	// accepted as brokers__…): attempts per event when a subscription sets
	// none. Default 30; range 1..100.
	DefaultMaxDeliveryAttempts int `envconfig:"broker__defaultMaxDeliveryAttempts" default:"30" desc:"delivery attempts per event (1-100)"`

	// DefaultEventTimeToLiveInSeconds is
	// broker__defaultEventTimeToLiveInSeconds: how long an event may wait for
	// delivery when a subscription sets no expiry. Default 7200; range
	// 1..86400. See DefaultEventTimeToLive.
	DefaultEventTimeToLiveInSeconds int `envconfig:"broker__defaultEventTimeToLiveInSeconds" default:"7200" desc:"event time to live in seconds (1-86400)"`

	// DefaultMaxBatchSizeInBytes is broker__defaultMaxBatchSizeInBytes: the
	// request size cap when a subscription sets only maxEventsPerBatch.
	// Default 1058576; range 1024..1058576.
	DefaultMaxBatchSizeInBytes int `envconfig:"broker__defaultMaxBatchSizeInBytes" default:"1058576" desc:"batch size cap in bytes (1024-1058576)"`

	// DefaultMaxEventsPerBatch is broker__defaultMaxEventsPerBatch: the event
	// count cap when a subscription sets only the batch size. Default 10;
	// range 1..api__deliveryPolicyLimits__maxEventsPerBatch.
	DefaultMaxEventsPerBatch int `envconfig:"broker__defaultMaxEventsPerBatch" default:"10" desc:"events per batch (1-api__deliveryPolicyLimits__maxEventsPerBatch)"`

	// LogDeliverySuccess is broker__logDeliverySuccess: log every successful
	// delivery, not only failures. Default false.
	LogDeliverySuccess bool `envconfig:"broker__logDeliverySuccess" default:"false" desc:"log every successful delivery"`

	// MetadataDBPath is broker__metadataDbPath, an addition of this project:
	// the directory where topic and subscription definitions are kept.
	// Default /app/metadataDb; the value "none" (any case) turns metadata
	// persistence off. See MetadataPath.
	MetadataDBPath string `envconfig:"broker__metadataDbPath" default:"/app/metadataDb" desc:"directory for topic and subscription definitions; none disables [edgegrid addition]"`

	// MaxBufferedBytes is broker__maxBufferedBytes, an addition of this
	// project: the cap on event bytes held in memory; publishing beyond it
	// is answered 503. Default 134217728 (128 MiB); range 1048576..2^40.
	MaxBufferedBytes int64 `envconfig:"broker__maxBufferedBytes" default:"134217728" desc:"cap on buffered event bytes (1048576-1099511627776) [edgegrid addition]"`

	// DeliveryConcurrency is broker__deliveryConcurrency, an addition of this
	// project: concurrent deliveries per subscription. Default 8; range
	// 1..256.
	DeliveryConcurrency int `envconfig:"broker__deliveryConcurrency" default:"8" desc:"concurrent deliveries per subscription (1-256) [edgegrid addition]"`

	// ShutdownGracePeriodInSeconds is broker__shutdownGracePeriodInSeconds,
	// an addition of this project: how long the drain after SIGTERM may keep
	// delivering queued events. Default 8; range 0..600. See
	// ShutdownGracePeriod.
	ShutdownGracePeriodInSeconds int `envconfig:"broker__shutdownGracePeriodInSeconds" default:"8" desc:"seconds to keep delivering after SIGTERM (0-600) [edgegrid addition]"`
}

// DefaultEventTimeToLive is DefaultEventTimeToLiveInSeconds as a duration.
func (b Broker) DefaultEventTimeToLive() time.Duration {
	return time.Duration(b.DefaultEventTimeToLiveInSeconds) * time.Second
}

// ShutdownGracePeriod is ShutdownGracePeriodInSeconds as a duration.
func (b Broker) ShutdownGracePeriod() time.Duration {
	return time.Duration(b.ShutdownGracePeriodInSeconds) * time.Second
}

// MetadataPath returns the metadata directory, or "" when metadata
// persistence is off (MetadataDBPath is "none" or empty).
func (b Broker) MetadataPath() string {
	if strings.EqualFold(b.MetadataDBPath, metadataDisabled) {
		return ""
	}
	return b.MetadataDBPath
}

// API holds the limits the REST API enforces on subscription settings.
type API struct {
	// MaxEventsPerBatch is api__deliveryPolicyLimits__maxEventsPerBatch: the
	// largest maxEventsPerBatch a subscription may ask for. Default 50;
	// range 1..5000.
	MaxEventsPerBatch int `envconfig:"api__deliveryPolicyLimits__maxEventsPerBatch" default:"50" desc:"largest maxEventsPerBatch a subscription may set (1-5000)"`

	// MaxPreferredBatchSizeInKilobytes is
	// api__deliveryPolicyLimits__maxpreferredBatchSizeInKilobytes (lower-case
	// p, as documented): the largest preferredBatchSizeInKilobytes a
	// subscription may ask for. Default 1033; range 1..1033.
	MaxPreferredBatchSizeInKilobytes int `envconfig:"api__deliveryPolicyLimits__maxpreferredBatchSizeInKilobytes" default:"1033" desc:"largest preferredBatchSizeInKilobytes a subscription may set (1-1033)"`

	// MaxBatchSizeInBytes is api__deliveryPolicyLimits__maxBatchSizeInBytes:
	// the largest approxBatchSizeInBytes a subscription may ask for (older
	// name of the previous limit). Default 1058576; range 1024..1058576.
	MaxBatchSizeInBytes int `envconfig:"api__deliveryPolicyLimits__maxBatchSizeInBytes" default:"1058576" desc:"largest approxBatchSizeInBytes a subscription may set (1024-1058576)"`
}

// Metrics configures metrics reporting.
type Metrics struct {
	// ReporterType is metrics__reporterType: none, prometheus or console,
	// any case. Default none.
	ReporterType ReporterType `envconfig:"metrics__reporterType" default:"none" desc:"metrics reporter: none, prometheus or console"`
}
