package resource

import (
	"encoding/json"
	"strings"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/eventschema"
)

// DecodeSubscription decodes a PUT /topics/{topic}/eventSubscriptions/{name}
// body. topicSchema is the topic's input schema (the delivery schema defaults to it).
func DecodeSubscription(topic string, topicSchema eventschema.Schema, name string, body []byte, l Limits) (broker.SubscriptionConfig, error) {
	if err := ValidateName("EventSubscription", name); err != nil {
		return broker.SubscriptionConfig{}, err
	}
	var sb subscriptionBody
	if err := decodeBody(body, &sb); err != nil {
		return broker.SubscriptionConfig{}, err
	}
	if err := checkBodyName("EventSubscription", sb.Name, name); err != nil {
		return broker.SubscriptionConfig{}, err
	}
	if sb.Properties == nil {
		return broker.SubscriptionConfig{}, destinationError("EventSubscription.Properties.Destination is required.")
	}
	return decodeProps(topic, topicSchema, name, sb.Properties, l)
}

// SubscriptionPropertiesTopic returns the topic a bare properties object names
// (the module twin's "topic" or "topicName"), or "".
func SubscriptionPropertiesTopic(raw json.RawMessage) string {
	var p subscriptionProps
	if json.Unmarshal(raw, &p) != nil {
		return ""
	}
	if p.TopicName.Set && !p.TopicName.Bad {
		return p.TopicName.Value
	}
	if p.Topic.Set && !p.Topic.Bad {
		return p.Topic.Value
	}
	return ""
}

// DecodeSubscriptionProperties decodes a bare properties object (module twin).
func DecodeSubscriptionProperties(topic string, topicSchema eventschema.Schema, name string, raw json.RawMessage, l Limits) (broker.SubscriptionConfig, error) {
	if err := ValidateName("EventSubscription", name); err != nil {
		return broker.SubscriptionConfig{}, err
	}
	var p subscriptionProps
	if err := decodeBody(raw, &p); err != nil {
		return broker.SubscriptionConfig{}, err
	}
	return decodeProps(topic, topicSchema, name, &p, l)
}

func decodeProps(topic string, topicSchema eventschema.Schema, name string, p *subscriptionProps, l Limits) (broker.SubscriptionConfig, error) {
	cfg := broker.SubscriptionConfig{Name: name, Topic: topic}
	if err := checkPropsTopic(p, topic); err != nil {
		return cfg, err
	}
	steps := []func() error{
		func() (err error) { cfg.DeliverySchema, err = deliverySchema(p, topicSchema); return },
		func() (err error) { cfg.RetryPolicy, err = decodeRetry(p.RetryPolicy, l); return },
		func() (err error) { cfg.Persisted, err = decodePersistence(p.PersistencePolicy); return },
		func() error { return decodeDestination(p.Destination, &cfg, l) },
		func() (err error) { cfg.Filter, err = decodeFilter(p.Filter); return },
		func() (err error) { cfg.DeliveryPolicy, err = decodeDeliveryPolicy(p.DeliveryPolicy, l); return },
		func() (err error) { cfg.DeadLetter, err = decodeDeadLetter(p.DeadLetter); return },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

func checkPropsTopic(p *subscriptionProps, topic string) error {
	for _, f := range []struct {
		name string
		v    flexString
	}{{"TopicName", p.TopicName}, {"Topic", p.Topic}} {
		if !f.v.Set {
			continue
		}
		if f.v.Bad || !strings.EqualFold(f.v.Value, topic) {
			return invalid(CodeInvalidName, "EventSubscription.Properties.%s '%s' does not match the topic '%s' in the request URL.", f.name, f.v.Value, topic)
		}
	}
	return nil
}

// deliverySchema resolves eventDeliverySchema: absent means the topic's schema;
// api.md's examples also put it inside destination.properties, which is honoured
// when the top-level property is absent.
func deliverySchema(p *subscriptionProps, topicSchema eventschema.Schema) (eventschema.Schema, error) {
	v := p.EventDeliverySchema
	if !v.Set && p.Destination != nil && p.Destination.Properties != nil {
		v = p.Destination.Properties.EventDeliverySchema
	}
	if !v.Set {
		return topicSchema, nil
	}
	s, ok := eventschema.ParseSchema(v.Value)
	if v.Bad || !ok {
		return 0, invalid(CodeInvalidDeliverySchema, "EventSubscription.Properties.EventDeliverySchema '%s' is not supported; use one of %s.", v.Value, eventschema.SchemaNames)
	}
	if s != topicSchema {
		return 0, invalid(CodeInvalidDeliverySchema, "EventSubscription.Properties.EventDeliverySchema %s must match the topic's input schema %s (no schema conversion is supported).", s, topicSchema)
	}
	return s, nil
}

func decodeRetry(rp *retryPolicyBody, l Limits) (*broker.RetryPolicy, error) {
	if rp == nil {
		return nil, nil
	}
	if err := checkRange(CodeInvalidRetryPolicy, "EventSubscription.Properties.RetryPolicy.MaxDeliveryAttempts", rp.MaxDeliveryAttempts, 1, l.MaxDeliveryAttempts); err != nil {
		return nil, err
	}
	if err := checkRange(CodeInvalidRetryPolicy, "EventSubscription.Properties.RetryPolicy.EventExpiryInMinutes", rp.EventExpiryInMinutes, 1, l.MaxEventExpiryInMinutes); err != nil {
		return nil, err
	}
	return &broker.RetryPolicy{MaxDeliveryAttempts: rp.MaxDeliveryAttempts.ptr(), EventExpiryInMinutes: rp.EventExpiryInMinutes.ptr()}, nil
}

func decodeDeliveryPolicy(dp *deliveryPolicy, l Limits) (*broker.DeliveryPolicy, error) {
	if dp == nil {
		return nil, nil
	}
	if err := checkRange(CodeInvalidDeliveryPolicy, "EventSubscription.Properties.DeliveryPolicy.MaxEventsPerBatch", dp.MaxEventsPerBatch, 1, l.MaxEventsPerBatch); err != nil {
		return nil, err
	}
	if err := checkRange(CodeInvalidDeliveryPolicy, "EventSubscription.Properties.DeliveryPolicy.ApproxBatchSizeInBytes", dp.ApproxBatchSizeInBytes, 1, l.MaxBatchSizeInBytes); err != nil {
		return nil, err
	}
	return &broker.DeliveryPolicy{MaxEventsPerBatch: dp.MaxEventsPerBatch.ptr(), ApproxBatchSizeInBytes: dp.ApproxBatchSizeInBytes.ptr()}, nil
}

// checkRange validates an optional integer against [lo, hi].
func checkRange(code, name string, v flexInt, lo, hi int) error {
	switch {
	case !v.Set:
		return nil
	case v.Bad:
		return invalid(code, "%s must be a whole number.", name)
	case v.Value < lo || v.Value > hi:
		return invalid(code, "%s is %d; it must be between %d and %d.", name, v.Value, lo, hi)
	}
	return nil
}

// decodePersistence accepts {"isPersisted":"true"}, {"IsPersisted":true} and
// the bare "true". Events are never persisted; the flag is reported back.
func decodePersistence(raw json.RawMessage) (*bool, error) {
	if isNull(raw) {
		return nil, nil
	}
	var obj struct {
		IsPersisted flexBool `json:"isPersisted"`
	}
	var bare flexBool
	switch {
	case json.Unmarshal(raw, &obj) == nil:
		bare = obj.IsPersisted
	case json.Unmarshal(raw, &bare) == nil:
	default:
		bare.Bad = true
	}
	if bare.Bad {
		return nil, invalid(CodeInvalidPersistencePolicy, "EventSubscription.Properties.PersistencePolicy must be {\"isPersisted\": true|false}.")
	}
	if !bare.Set {
		return nil, nil
	}
	v := bare.Value
	return &v, nil
}
