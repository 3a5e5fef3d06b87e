package resource

import "encoding/json"

// subscriptionBody is PUT /topics/{t}/eventSubscriptions/{s}.
type subscriptionBody struct {
	Name       flexString         `json:"name"`
	Properties *subscriptionProps `json:"properties"`
}

// subscriptionProps are a subscription's properties (also the module twin's
// desired "eventSubscriptions" entries).
type subscriptionProps struct {
	TopicName           flexString       `json:"topicName"`
	Topic               flexString       `json:"topic"`
	EventDeliverySchema flexString       `json:"eventDeliverySchema"`
	RetryPolicy         *retryPolicyBody `json:"retryPolicy"`
	PersistencePolicy   json.RawMessage  `json:"persistencePolicy"`
	Destination         *destinationBody `json:"destination"`
	Filter              *filterBody      `json:"filter"`
	DeliveryPolicy      *deliveryPolicy  `json:"deliveryPolicy"`
	DeadLetter          *destinationBody `json:"deadLetterDestination"`
}

type retryPolicyBody struct {
	EventExpiryInMinutes flexInt `json:"eventExpiryInMinutes"`
	MaxDeliveryAttempts  flexInt `json:"maxDeliveryAttempts"`
}

type deliveryPolicy struct {
	ApproxBatchSizeInBytes flexInt `json:"approxBatchSizeInBytes"`
	MaxEventsPerBatch      flexInt `json:"maxEventsPerBatch"`
}

type destinationBody struct {
	EndpointType flexString        `json:"endpointType"`
	Properties   *destinationProps `json:"properties"`
}

type destinationProps struct {
	EndpointURL                   flexString      `json:"endpointUrl"`
	MaxEventsPerBatch             flexInt         `json:"maxEventsPerBatch"`
	PreferredBatchSizeInKilobytes flexInt         `json:"preferredBatchSizeInKilobytes"`
	OutputName                    flexString      `json:"outputName"`
	SASKey                        flexString      `json:"sasKey"`
	TopicName                     flexString      `json:"topicName"`
	Authentication                flexString      `json:"authentication"` // EventGrid: SasKey or EntraId
	Topic                         flexString      `json:"topic"`          // Mqtt destination topic
	EventDeliverySchema           flexString      `json:"eventDeliverySchema"`
	DeliveryAttributeMappings     json.RawMessage `json:"deliveryAttributeMappings"`
	ValidationHandshake           flexBool        `json:"validationHandshake"`
}

type filterBody struct {
	IncludedEventTypes     json.RawMessage `json:"includedEventTypes"`
	EventTypes             json.RawMessage `json:"eventTypes"` // older module twin name
	SubjectBeginsWith      flexString      `json:"subjectBeginsWith"`
	SubjectEndsWith        flexString      `json:"subjectEndsWith"`
	IsSubjectCaseSensitive flexBool        `json:"isSubjectCaseSensitive"`
	AdvancedFilters        json.RawMessage `json:"advancedFilters"`
}

type advancedFilterBody struct {
	OperatorType flexString      `json:"operatorType"`
	Operator     flexString      `json:"operator"` // the 2018 cloud documentation's name
	Key          flexString      `json:"key"`
	Value        json.RawMessage `json:"value"`
	Values       json.RawMessage `json:"values"`
}

type attributeMapping struct {
	Name       flexString `json:"name"`
	Type       flexString `json:"type"`
	Properties *struct {
		Value       flexString `json:"value"`
		IsSecret    flexBool   `json:"isSecret"`
		SourceField flexString `json:"sourceField"`
	} `json:"properties"`
}
