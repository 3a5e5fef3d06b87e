package broker

import (
	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/filter"
)

// TopicConfig defines a topic.
type TopicConfig struct {
	Name   string
	Schema eventschema.Schema
}

// SubscriptionConfig defines an event subscription. Optional parts are nil when
// the caller did not give them, so the API can echo exactly what was set.
type SubscriptionConfig struct {
	Name  string
	Topic string
	// DeliverySchema must equal the topic's input schema.
	DeliverySchema eventschema.Schema
	Destination    destination.Endpoint
	Filter         *filter.Spec
	RetryPolicy    *RetryPolicy
	// MaxEventsPerBatch and PreferredBatchSizeInKilobytes are the destination's
	// batching properties; DeliveryPolicy is the older subscription-level shape.
	MaxEventsPerBatch             *int
	PreferredBatchSizeInKilobytes *int
	DeliveryPolicy                *DeliveryPolicy
	// Persisted is persistencePolicy.isPersisted as given. It is reported but
	// events are never persisted.
	Persisted *bool
	// DeadLetter is where dropped events go; nil: they are only logged.
	DeadLetter *DeadLetterDestination
}

// RetryPolicy overrides the broker's retry defaults for one subscription.
type RetryPolicy struct {
	MaxDeliveryAttempts  *int
	EventExpiryInMinutes *int
}

// DeliveryPolicy is the module twin's older batching shape.
type DeliveryPolicy struct {
	ApproxBatchSizeInBytes *int
	MaxEventsPerBatch      *int
}

// batchLimits resolves the effective batching of a subscription: off (one event
// per request) unless a batching property is set; a property left unset takes the
// broker default, as delivery-output-batching.md documents.
func (c *SubscriptionConfig) batchLimits(cfg *Config) (maxEvents, maxBytes int) {
	switch {
	case c.MaxEventsPerBatch != nil || c.PreferredBatchSizeInKilobytes != nil:
		maxEvents, maxBytes = cfg.DefaultMaxEventsPerBatch, cfg.DefaultMaxBatchBytes
		if c.MaxEventsPerBatch != nil {
			maxEvents = *c.MaxEventsPerBatch
		}
		if c.PreferredBatchSizeInKilobytes != nil {
			maxBytes = *c.PreferredBatchSizeInKilobytes * 1024
		}
	case c.DeliveryPolicy != nil && (c.DeliveryPolicy.MaxEventsPerBatch != nil || c.DeliveryPolicy.ApproxBatchSizeInBytes != nil):
		maxEvents, maxBytes = cfg.DefaultMaxEventsPerBatch, cfg.DefaultMaxBatchBytes
		if c.DeliveryPolicy.MaxEventsPerBatch != nil {
			maxEvents = *c.DeliveryPolicy.MaxEventsPerBatch
		}
		if c.DeliveryPolicy.ApproxBatchSizeInBytes != nil {
			maxBytes = *c.DeliveryPolicy.ApproxBatchSizeInBytes
		}
	default:
		return 1, 0
	}
	return max(maxEvents, 1), max(maxBytes, 1)
}
