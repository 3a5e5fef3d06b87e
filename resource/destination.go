package resource

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
)

// unsupportedTypes are destination kinds the original's preview2 offered that
// edgegrid does not deliver to; they get a specific message.
var unsupportedTypes = map[string]bool{"eventhub": true, "servicebusqueue": true, "servicebustopic": true, "storagequeue": true}

func decodeDestination(d *destinationBody, cfg *broker.SubscriptionConfig, l Limits) error {
	if d == nil {
		return destinationError("EventSubscription.Properties.Destination is required.")
	}
	if !d.EndpointType.Set || d.EndpointType.Bad || strings.TrimSpace(d.EndpointType.Value) == "" {
		return destinationError("EndpointType is required (WebHook, EdgeHub, EventGrid or Mqtt).")
	}
	t, ok := destination.ParseEndpointType(d.EndpointType.Value)
	if !ok {
		if unsupportedTypes[strings.ToLower(d.EndpointType.Value)] {
			return destinationError(fmt.Sprintf("EndpointType '%s' is not supported by edgegrid; use WebHook, EdgeHub, EventGrid or Mqtt.", d.EndpointType.Value))
		}
		return destinationError(fmt.Sprintf("EndpointType '%s' is unknown; use WebHook, EdgeHub, EventGrid or Mqtt.", d.EndpointType.Value))
	}
	var p destinationProps
	if d.Properties != nil {
		p = *d.Properties
	}
	ep := destination.Endpoint{Type: t}
	for _, s := range []struct {
		name string
		v    flexString
		dst  *string
	}{{"EndpointUrl", p.EndpointURL, &ep.URL}, {"OutputName", p.OutputName, &ep.OutputName},
		{"SasKey", p.SASKey, &ep.SASKey}, {"Topic", p.Topic, &ep.MqttTopic}} {
		if s.v.Bad {
			return destinationError(s.name + " must be a string.")
		}
		*s.dst = s.v.Value
	}
	if p.TopicName.Bad {
		return destinationError("TopicName must be a string or null.")
	}
	if p.TopicName.Set {
		v := p.TopicName.Value
		ep.TopicName = &v
	}
	if err := decodeAuthentication(p.Authentication, &ep); err != nil {
		return err
	}
	headers, err := decodeHeaders(p.DeliveryAttributeMappings)
	if err != nil {
		return err
	}
	ep.Headers = headers
	if p.ValidationHandshake.Bad {
		return destinationError("ValidationHandshake must be true or false.")
	}
	if p.ValidationHandshake.Value && t != destination.WebHook {
		return destinationError("ValidationHandshake applies to WebHook destinations only.")
	}
	ep.Handshake = p.ValidationHandshake.Value
	cfg.Destination = ep
	return decodeBatching(p, cfg, l)
}

// decodeAuthentication reads the EventGrid destination's "authentication"
// property (SasKey or EntraId, any case; absent or null: chosen from sasKey).
func decodeAuthentication(v flexString, ep *destination.Endpoint) error {
	if v.Bad {
		return destinationError("Authentication must be a string.")
	}
	if !v.Set || v.Value == "" {
		return nil
	}
	if ep.Type != destination.EventGrid {
		return destinationError("Authentication applies only to EventGrid destinations.")
	}
	a, ok := destination.ParseAuthentication(v.Value)
	if !ok {
		return destinationError(fmt.Sprintf("Authentication '%s' is unknown; use SasKey or EntraId.", v.Value))
	}
	ep.Authentication = a
	return nil
}

func decodeBatching(p destinationProps, cfg *broker.SubscriptionConfig, l Limits) error {
	if err := checkRange(CodeInvalidDestination, "EventSubscription.Properties.Destination.Properties.MaxEventsPerBatch", p.MaxEventsPerBatch, 1, l.MaxEventsPerBatch); err != nil {
		return err
	}
	if err := checkRange(CodeInvalidDestination, "EventSubscription.Properties.Destination.Properties.PreferredBatchSizeInKilobytes", p.PreferredBatchSizeInKilobytes, 1, l.MaxPreferredBatchSizeInKilobytes); err != nil {
		return err
	}
	cfg.MaxEventsPerBatch = p.MaxEventsPerBatch.ptr()
	cfg.PreferredBatchSizeInKilobytes = p.PreferredBatchSizeInKilobytes.ptr()
	return nil
}

// decodeHeaders reads the cloud's deliveryAttributeMappings: static headers only.
func decodeHeaders(raw json.RawMessage) ([]destination.Header, error) {
	if isNull(raw) {
		return nil, nil
	}
	var ms []attributeMapping
	if err := json.Unmarshal(raw, &ms); err != nil {
		return nil, destinationError("DeliveryAttributeMappings must be an array of {name, type, properties}.")
	}
	out := make([]destination.Header, 0, len(ms))
	for i, m := range ms {
		if !m.Name.Set || m.Name.Bad || m.Name.Value == "" {
			return nil, destinationError(fmt.Sprintf("DeliveryAttributeMappings[%d].Name is required.", i))
		}
		if m.Type.Set && !strings.EqualFold(m.Type.Value, "Static") {
			return nil, destinationError(fmt.Sprintf("DeliveryAttributeMappings[%d].Type '%s' is not supported; only Static headers are.", i, m.Type.Value))
		}
		if m.Properties == nil || !m.Properties.Value.Set || m.Properties.Value.Bad {
			return nil, destinationError(fmt.Sprintf("DeliveryAttributeMappings[%d].Properties.Value is required.", i))
		}
		out = append(out, destination.Header{Name: m.Name.Value, Value: m.Properties.Value.Value, Secret: m.Properties.IsSecret.Value})
	}
	return out, nil
}
