package resource

import (
	"strings"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
)

// decodeDeadLetter reads deadLetterDestination, an addition of edgegrid:
//
//	{"endpointType": "Topic",   "properties": {"topicName": "<local topic>"}}
//	{"endpointType": "WebHook", "properties": {"endpointUrl": "https://..."}}
func decodeDeadLetter(d *destinationBody) (*broker.DeadLetterDestination, error) {
	if d == nil {
		return nil, nil
	}
	var p destinationProps
	if d.Properties != nil {
		p = *d.Properties
	}
	switch t := strings.ToLower(strings.TrimSpace(d.EndpointType.Value)); {
	case d.EndpointType.Bad || t == "":
		return nil, deadLetterError("EndpointType is required (Topic or WebHook).")
	case t == "topic":
		if p.TopicName.Bad || strings.TrimSpace(p.TopicName.Value) == "" {
			return nil, deadLetterError("Properties.TopicName must name a local topic.")
		}
		if err := ValidateName("Topic", p.TopicName.Value); err != nil {
			return nil, deadLetterError(err.Error())
		}
		return &broker.DeadLetterDestination{Topic: p.TopicName.Value}, nil
	case t == "webhook":
		if p.EndpointURL.Bad {
			return nil, deadLetterError("Properties.EndpointUrl must be a string.")
		}
		headers, err := decodeHeaders(p.DeliveryAttributeMappings)
		if err != nil {
			return nil, deadLetterError(err.Error())
		}
		return &broker.DeadLetterDestination{Endpoint: &destination.Endpoint{Type: destination.WebHook, URL: p.EndpointURL.Value, Headers: headers}}, nil
	default:
		return nil, deadLetterError("EndpointType '" + d.EndpointType.Value + "' is not supported; use Topic or WebHook.")
	}
}

func deadLetterError(msg string) *Error {
	return &Error{Code: CodeInvalidDeadLetter, Message: "EventSubscription.Properties.DeadLetterDestination failed validation: " + msg}
}

type deadLetterOutput struct {
	EndpointType string         `json:"endpointType"`
	Properties   map[string]any `json:"properties"`
}

func renderDeadLetter(dl *broker.DeadLetterDestination) *deadLetterOutput {
	if dl == nil {
		return nil
	}
	if dl.Topic != "" {
		return &deadLetterOutput{EndpointType: "Topic", Properties: map[string]any{"topicName": dl.Topic}}
	}
	return &deadLetterOutput{EndpointType: "WebHook", Properties: map[string]any{"endpointUrl": dl.Endpoint.URL}}
}
