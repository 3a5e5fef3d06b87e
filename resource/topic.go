package resource

import (
	"encoding/json"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/eventschema"
)

// APIVersion is the management API's version.
const APIVersion = "2019-01-01-preview"

type topicBody struct {
	Name       flexString       `json:"name"`
	Properties *topicProperties `json:"properties"`
}

type topicProperties struct {
	InputSchema flexString `json:"inputSchema"`
}

// DecodeTopic decodes a PUT /topics/{name} body. An empty body means defaults.
func DecodeTopic(name string, body []byte) (broker.TopicConfig, error) {
	if err := ValidateName("Topic", name); err != nil {
		return broker.TopicConfig{}, err
	}
	var tb topicBody
	if err := decodeBody(body, &tb); err != nil {
		return broker.TopicConfig{}, err
	}
	if err := checkBodyName("Topic", tb.Name, name); err != nil {
		return broker.TopicConfig{}, err
	}
	var props topicProperties
	if tb.Properties != nil {
		props = *tb.Properties
	}
	return decodeTopicProperties(name, props)
}

// decodeTopicProperties applies a topic's properties (also the module twin's
// desired "topics" entries).
func decodeTopicProperties(name string, p topicProperties) (broker.TopicConfig, error) {
	cfg := broker.TopicConfig{Name: name, Schema: eventschema.EventGrid}
	if p.InputSchema.Set {
		s, ok := eventschema.ParseSchema(p.InputSchema.Value)
		if p.InputSchema.Bad || !ok {
			return cfg, invalid(CodeInvalidInputSchema, "Topic.Properties.InputSchema '%s' is not supported; use one of %s.", p.InputSchema.Value, eventschema.SchemaNames)
		}
		cfg.Schema = s
	}
	return cfg, nil
}

// DecodeTopicPropertiesJSON decodes a bare properties object (module twin form).
func DecodeTopicPropertiesJSON(name string, raw json.RawMessage) (broker.TopicConfig, error) {
	if err := ValidateName("Topic", name); err != nil {
		return broker.TopicConfig{}, err
	}
	var p topicProperties
	if err := decodeBody(raw, &p); err != nil {
		return broker.TopicConfig{}, err
	}
	return decodeTopicProperties(name, p)
}

// Topic is the topic resource as the API returns it.
type Topic struct {
	ID         string                `json:"id"`
	Name       string                `json:"name"`
	Type       string                `json:"type"`
	Properties TopicPropertiesOutput `json:"properties"`
}

// TopicPropertiesOutput are a topic's rendered properties.
type TopicPropertiesOutput struct {
	Endpoint    string `json:"endpoint,omitempty"`
	InputSchema string `json:"inputSchema"`
}

// RenderTopic renders a topic; baseURL is the request's scheme://host[:port]
// (endpoint is built from it, as the original did); empty omits the endpoint.
func RenderTopic(cfg broker.TopicConfig, id Identity, baseURL string) Topic {
	t := Topic{ID: id.topicID(cfg.Name), Name: cfg.Name, Type: "Microsoft.EventGrid/topics",
		Properties: TopicPropertiesOutput{InputSchema: cfg.Schema.String()}}
	if baseURL != "" {
		t.Properties.Endpoint = baseURL + "/topics/" + cfg.Name + "/events?api-version=" + APIVersion
	}
	return t
}

// decodeBody decodes JSON leniently (unknown properties ignored); an empty body
// leaves v untouched.
func decodeBody(body []byte, v any) error {
	if len(trimSpace(body)) == 0 {
		return nil
	}
	if err := json.Unmarshal(body, v); err != nil {
		return invalid(CodeInvalidRequestBody, "The request body is not valid JSON for this resource: %s.", err.Error())
	}
	return nil
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\n' || b[0] == '\r' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\n' || b[len(b)-1] == '\r' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}
