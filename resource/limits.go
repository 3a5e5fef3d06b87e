package resource

// Limits are the configured bounds subscriptions are validated against.
type Limits struct {
	// MaxEventsPerBatch: api__deliveryPolicyLimits__maxEventsPerBatch (50).
	MaxEventsPerBatch int
	// MaxPreferredBatchSizeInKilobytes: api__deliveryPolicyLimits__maxpreferredBatchSizeInKilobytes (1033).
	MaxPreferredBatchSizeInKilobytes int
	// MaxBatchSizeInBytes: api__deliveryPolicyLimits__maxBatchSizeInBytes (1,058,576), for deliveryPolicy.
	MaxBatchSizeInBytes int
	// MaxDeliveryAttempts bounds retryPolicy.maxDeliveryAttempts (100).
	MaxDeliveryAttempts int
	// MaxEventExpiryInMinutes bounds retryPolicy.eventExpiryInMinutes (1440, the cloud's maximum).
	MaxEventExpiryInMinutes int
}

// DefaultLimits are the documented defaults.
func DefaultLimits() Limits {
	return Limits{MaxEventsPerBatch: 50, MaxPreferredBatchSizeInKilobytes: 1033, MaxBatchSizeInBytes: 1_058_576,
		MaxDeliveryAttempts: 100, MaxEventExpiryInMinutes: 1440}
}

// Identity names the module for resource ids:
// /iotHubs/{Hub}/devices/{Device}/modules/{Module}/topics/{topic}.
type Identity struct {
	Hub, Device, Module string
}

func (id Identity) topicID(topic string) string {
	return "/iotHubs/" + id.Hub + "/devices/" + id.Device + "/modules/" + id.Module + "/topics/" + topic
}
