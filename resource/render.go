package resource

import (
	"encoding/json"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/filter"
)

// Subscription is the event subscription resource as the API returns it.
type Subscription struct {
	ID         string                 `json:"id"`
	Name       string                 `json:"name"`
	Type       string                 `json:"type"`
	Properties SubscriptionProperties `json:"properties"`
}

// SubscriptionProperties are rendered properties. Topic repeats TopicName: api.md
// documents topicName, while the module's real responses (and the SDK's model)
// used Topic; both are sent so either reader finds it.
type SubscriptionProperties struct {
	TopicName           string             `json:"topicName"`
	Topic               string             `json:"topic"`
	EventDeliverySchema string             `json:"eventDeliverySchema"`
	RetryPolicy         *retryOutput       `json:"retryPolicy,omitempty"`
	PersistencePolicy   *persistenceOutput `json:"persistencePolicy,omitempty"`
	Destination         destinationOutput  `json:"destination"`
	Filter              *filterOutput      `json:"filter,omitempty"`
	DeliveryPolicy      *deliveryPolicyOut `json:"deliveryPolicy,omitempty"`
	DeadLetter          *deadLetterOutput  `json:"deadLetterDestination,omitempty"`
}

type retryOutput struct {
	EventExpiryInMinutes *int `json:"eventExpiryInMinutes,omitempty"`
	MaxDeliveryAttempts  *int `json:"maxDeliveryAttempts,omitempty"`
}

type persistenceOutput struct {
	IsPersisted bool `json:"isPersisted"`
}

type deliveryPolicyOut struct {
	ApproxBatchSizeInBytes *int `json:"approxBatchSizeInBytes,omitempty"`
	MaxEventsPerBatch      *int `json:"maxEventsPerBatch,omitempty"`
}

type destinationOutput struct {
	EndpointType string          `json:"endpointType"`
	Properties   destPropsOutput `json:"properties"`
}

type destPropsOutput struct {
	EndpointURL                   string          `json:"endpointUrl,omitempty"`
	OutputName                    string          `json:"outputName,omitempty"`
	SASKey                        string          `json:"sasKey,omitempty"`
	TopicName                     *string         `json:"topicName,omitempty"`
	Authentication                string          `json:"authentication,omitempty"`
	Topic                         string          `json:"topic,omitempty"`
	MaxEventsPerBatch             *int            `json:"maxEventsPerBatch,omitempty"`
	PreferredBatchSizeInKilobytes *int            `json:"preferredBatchSizeInKilobytes,omitempty"`
	DeliveryAttributeMappings     []mappingOutput `json:"deliveryAttributeMappings,omitempty"`
	ValidationHandshake           bool            `json:"validationHandshake,omitempty"`
}

type mappingOutput struct {
	Name       string         `json:"name"`
	Type       string         `json:"type"`
	Properties mappingPropOut `json:"properties"`
}

type mappingPropOut struct {
	Value    *string `json:"value"`
	IsSecret bool    `json:"isSecret"`
}

type filterOutput struct {
	SubjectBeginsWith      string              `json:"subjectBeginsWith,omitempty"`
	SubjectEndsWith        string              `json:"subjectEndsWith,omitempty"`
	IsSubjectCaseSensitive bool                `json:"isSubjectCaseSensitive"`
	IncludedEventTypes     []string            `json:"includedEventTypes,omitempty"`
	AdvancedFilters        []advancedFilterOut `json:"advancedFilters,omitempty"`
}

type advancedFilterOut struct {
	OperatorType string          `json:"operatorType"`
	Key          string          `json:"key"`
	Value        json.RawMessage `json:"value,omitempty"`
	Values       json.RawMessage `json:"values,omitempty"`
}

// RenderMode says whether secrets are included.
type RenderMode uint8

// Render modes.
const (
	// ForAPI omits secrets (sasKey, secret header values): they are write-only.
	ForAPI RenderMode = iota
	// ForStore includes them, for the metadata store only.
	ForStore
)

// RenderSubscription renders a subscription.
func RenderSubscription(c broker.SubscriptionConfig, id Identity, mode RenderMode) Subscription {
	p := SubscriptionProperties{TopicName: c.Topic, Topic: c.Topic, EventDeliverySchema: c.DeliverySchema.String(),
		Destination: renderDestination(c, mode), Filter: renderFilter(c.Filter)}
	if c.RetryPolicy != nil {
		p.RetryPolicy = &retryOutput{EventExpiryInMinutes: c.RetryPolicy.EventExpiryInMinutes, MaxDeliveryAttempts: c.RetryPolicy.MaxDeliveryAttempts}
	}
	if c.Persisted != nil {
		p.PersistencePolicy = &persistenceOutput{IsPersisted: *c.Persisted}
	}
	p.DeadLetter = renderDeadLetter(c.DeadLetter)
	if c.DeliveryPolicy != nil {
		p.DeliveryPolicy = &deliveryPolicyOut{ApproxBatchSizeInBytes: c.DeliveryPolicy.ApproxBatchSizeInBytes, MaxEventsPerBatch: c.DeliveryPolicy.MaxEventsPerBatch}
	}
	return Subscription{ID: id.topicID(c.Topic) + "/eventSubscriptions/" + c.Name, Name: c.Name,
		Type: "Microsoft.EventGrid/eventSubscriptions", Properties: p}
}

func renderDestination(c broker.SubscriptionConfig, mode RenderMode) destinationOutput {
	ep := c.Destination
	props := destPropsOutput{EndpointURL: ep.URL, OutputName: ep.OutputName, TopicName: ep.TopicName, Topic: ep.MqttTopic,
		Authentication:    string(ep.Authentication),
		MaxEventsPerBatch: c.MaxEventsPerBatch, PreferredBatchSizeInKilobytes: c.PreferredBatchSizeInKilobytes,
		ValidationHandshake: ep.Handshake}
	if mode == ForStore {
		props.SASKey = ep.SASKey
	}
	for _, h := range ep.Headers {
		m := mappingOutput{Name: h.Name, Type: "Static", Properties: mappingPropOut{IsSecret: h.Secret}}
		if !h.Secret || mode == ForStore {
			v := h.Value
			m.Properties.Value = &v
		}
		props.DeliveryAttributeMappings = append(props.DeliveryAttributeMappings, m)
	}
	return destinationOutput{EndpointType: string(ep.Type), Properties: props}
}

func renderFilter(f *filter.Spec) *filterOutput {
	if f == nil {
		return nil
	}
	out := &filterOutput{SubjectBeginsWith: f.SubjectBeginsWith, SubjectEndsWith: f.SubjectEndsWith,
		IsSubjectCaseSensitive: f.IsSubjectCaseSensitive, IncludedEventTypes: f.IncludedEventTypes}
	for _, af := range f.AdvancedFilters {
		out.AdvancedFilters = append(out.AdvancedFilters, advancedFilterOut{OperatorType: af.OperatorType, Key: af.Key, Value: af.Value, Values: af.Values})
	}
	return out
}
