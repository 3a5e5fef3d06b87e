package resource

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/eventschema"
)

func TestDecodeTopic(t *testing.T) {
	tests := map[string]struct {
		url, body string
		want      eventschema.Schema
		errCode   string
	}{
		"tutorial lower-case key":    {"sampleTopic1", `{"name":"sampleTopic1","properties":{"inputschema":"eventGridSchema"}}`, eventschema.EventGrid, ""},
		"SDK PascalCase":             {"quickstarttopic", `{"Name":"quickstarttopic","Properties":{"InputSchema":"CustomEventSchema"}}`, eventschema.Custom, ""},
		"CustomSchema alias":         {"mycustomschematopic", `{"name":"mycustomschematopic","properties":{"inputSchema":"CustomSchema"}}`, eventschema.Custom, ""},
		"CloudEvents":                {"ce", `{"properties":{"inputSchema":"CloudEventSchemaV1_0"}}`, eventschema.CloudEvents, ""},
		"empty body defaults":        {"t", ``, eventschema.EventGrid, ""},
		"empty object defaults":      {"t", `{}`, eventschema.EventGrid, ""},
		"name in other case is fine": {"Topic1", `{"name":"topic1"}`, eventschema.EventGrid, ""},
		"name mismatch":              {"a", `{"name":"b"}`, 0, CodeInvalidName},
		"unknown schema":             {"a", `{"properties":{"inputSchema":"Avro"}}`, 0, CodeInvalidInputSchema},
		"schema not a string":        {"a", `{"properties":{"inputSchema":1}}`, 0, CodeInvalidInputSchema},
		"broken JSON":                {"a", `{"name":`, 0, CodeInvalidRequestBody},
		"trailing comma is not JSON": {"a", `{"name":"a",}`, 0, CodeInvalidRequestBody},
		"bad topic name":             {"a b", `{}`, 0, CodeInvalidName},
		"topic name with a dot":      {"a.b", `{}`, 0, CodeInvalidName},
		"topic name too long":        {strings.Repeat("a", 129), `{}`, 0, CodeInvalidName},
		"topic name of 128 is fine":  {strings.Repeat("a", 128), `{}`, eventschema.EventGrid, ""},
		"body is an array":           {"a", `[1]`, 0, CodeInvalidRequestBody},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cfg, err := DecodeTopic(tc.url, []byte(tc.body))
			if tc.errCode != "" {
				var re *Error
				if !errors.As(err, &re) || re.Code != tc.errCode || !errors.Is(err, ErrInvalid) {
					t.Fatalf("err = %v, want code %s", err, tc.errCode)
				}
				return
			}
			if err != nil || cfg.Schema != tc.want || cfg.Name != tc.url {
				t.Fatalf("cfg %+v err %v", cfg, err)
			}
		})
	}
}

func TestRenderTopic(t *testing.T) {
	id := Identity{Hub: "eg-iot-edge-hub", Device: "eg-edge-device", Module: "eventgridmodule"}
	got, _ := json.Marshal(RenderTopic(broker.TopicConfig{Name: "sampleTopic1"}, id, "https://10.0.0.4:4438"))
	want := `{"id":"/iotHubs/eg-iot-edge-hub/devices/eg-edge-device/modules/eventgridmodule/topics/sampleTopic1","name":"sampleTopic1","type":"Microsoft.EventGrid/topics","properties":{"endpoint":"https://10.0.0.4:4438/topics/sampleTopic1/events?api-version=2019-01-01-preview","inputSchema":"EventGridSchema"}}`
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func decodeSub(t *testing.T, schema eventschema.Schema, body string) (broker.SubscriptionConfig, error) {
	t.Helper()
	return DecodeSubscription("sampleTopic1", schema, "sub1", []byte(body), DefaultLimits())
}

func TestDecodeSubscriptionAccepted(t *testing.T) {
	tests := map[string]struct {
		body  string
		check func(t *testing.T, c broker.SubscriptionConfig)
	}{
		"tutorial webhook": {`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://subscriber:4430"}}}}`,
			func(t *testing.T, c broker.SubscriptionConfig) {
				if c.Destination.Type != destination.WebHook || c.Destination.URL != "https://subscriber:4430" || c.DeliverySchema != eventschema.EventGrid ||
					c.Filter != nil || c.RetryPolicy != nil || c.MaxEventsPerBatch != nil {
					t.Fatalf("%+v", c)
				}
			}},
		"SDK PascalCase with Topic": {`{"Name":"sub1","Properties":{"Topic":"sampleTopic1","Destination":{"EndpointType":"Webhook","Properties":{"EndpointUrl":"http://subscriber:80/api/subscriber"}},"EventDeliverySchema":"EventGridSchema"}}`,
			func(t *testing.T, c broker.SubscriptionConfig) {
				if c.Destination.URL != "http://subscriber:80/api/subscriber" {
					t.Fatalf("%+v", c)
				}
			}},
		"retry policy and batching": {`{"properties":{"topicName":"sampleTopic1","retryPolicy":{"eventExpiryInMinutes":120,"maxDeliveryAttempts":50},"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://x","maxEventsPerBatch":10,"preferredBatchSizeInKilobytes":1033}}}}`,
			func(t *testing.T, c broker.SubscriptionConfig) {
				if *c.RetryPolicy.MaxDeliveryAttempts != 50 || *c.RetryPolicy.EventExpiryInMinutes != 120 || *c.MaxEventsPerBatch != 10 || *c.PreferredBatchSizeInKilobytes != 1033 {
					t.Fatalf("%+v", c)
				}
			}},
		"numbers as strings": {`{"properties":{"retryPolicy":{"maxDeliveryAttempts":"3"},"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://x","maxEventsPerBatch":"5"}}}}`,
			func(t *testing.T, c broker.SubscriptionConfig) {
				if *c.RetryPolicy.MaxDeliveryAttempts != 3 || c.RetryPolicy.EventExpiryInMinutes != nil || *c.MaxEventsPerBatch != 5 {
					t.Fatalf("%+v", c)
				}
			}},
		"delivery schema inside destination properties": {`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://x","eventDeliverySchema":"eventgridschema"}}}}`,
			func(t *testing.T, c broker.SubscriptionConfig) {
				if c.DeliverySchema != eventschema.EventGrid {
					t.Fatal(c.DeliverySchema)
				}
			}},
		"persistence object string": {`{"properties":{"persistencePolicy":{"isPersisted":"true"},"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://x"}}}}`,
			func(t *testing.T, c broker.SubscriptionConfig) {
				if c.Persisted == nil || !*c.Persisted {
					t.Fatal("isPersisted not read")
				}
			}},
		"persistence SDK bool": {`{"Properties":{"PersistencePolicy":{"IsPersisted":false},"Destination":{"EndpointType":"WebHook","Properties":{"EndpointUrl":"https://x"}}}}`,
			func(t *testing.T, c broker.SubscriptionConfig) {
				if c.Persisted == nil || *c.Persisted {
					t.Fatal("IsPersisted not read")
				}
			}},
		"persistence bare string": {`{"properties":{"persistencePolicy":"true","destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://x"}}}}`,
			func(t *testing.T, c broker.SubscriptionConfig) {
				if c.Persisted == nil || !*c.Persisted {
					t.Fatal("bare string not read")
				}
			}},
		"legacy delivery policy and edgeHub": {`{"properties":{"deliveryPolicy":{"approxBatchSizeInBytes":200000,"maxEventsPerBatch":25},"destination":{"endpointType":"edgeHub","properties":{"outputName":"sampleSub4"}}}}`,
			func(t *testing.T, c broker.SubscriptionConfig) {
				if c.Destination.Type != destination.EdgeHub || c.Destination.OutputName != "sampleSub4" || *c.DeliveryPolicy.ApproxBatchSizeInBytes != 200000 {
					t.Fatalf("%+v", c)
				}
			}},
		"eventGrid with null topicName": {`{"properties":{"destination":{"endpointType":"eventGrid","properties":{"endpointUrl":"https://t.westus2-1.eventgrid.azure.net/api/events?api-version=2018-01-01","sasKey":"k","topicName":null}}}}`,
			func(t *testing.T, c broker.SubscriptionConfig) {
				if c.Destination.Type != destination.EventGrid || c.Destination.SASKey != "k" || c.Destination.TopicName != nil {
					t.Fatalf("%+v", c.Destination)
				}
			}},
		"filters incl. twin string-encoded arrays": {`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://x"}},"filter":{"subjectBeginsWith":"^","subjectEndsWith":"$","isSubjectCaseSensitive":"false","includedEventTypes":"[\"et1\",\"et2\"]","advancedFilters":"[{\"value\":true,\"operatorType\":\"BoolEquals\",\"key\":\"data.b\"},{\"values\":[\"\\\"\",\"c\"],\"operatorType\":\"StringContains\",\"key\":\"data.s\"}]"}}}`,
			func(t *testing.T, c broker.SubscriptionConfig) {
				f := c.Filter
				if f.SubjectBeginsWith != "^" || !reflect.DeepEqual(f.IncludedEventTypes, []string{"et1", "et2"}) || len(f.AdvancedFilters) != 2 || f.AdvancedFilters[1].OperatorType != "StringContains" {
					t.Fatalf("%+v", f)
				}
			}},
		"api.md advanced filter PascalCase": {`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://x"}},"filter":{"advancedFilters":[{"OperatorType":"NumberIn","Key":"Data.Key1","Values":[1,10,100]}]}}}`,
			func(t *testing.T, c broker.SubscriptionConfig) {
				if string(c.Filter.AdvancedFilters[0].Values) != "[1,10,100]" {
					t.Fatalf("%+v", c.Filter.AdvancedFilters[0])
				}
			}},
		"static delivery header": {`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://x","deliveryAttributeMappings":[{"name":"Authorization","type":"Static","properties":{"value":"Bearer t","isSecret":true}}]}}}}`,
			func(t *testing.T, c broker.SubscriptionConfig) {
				if len(c.Destination.Headers) != 1 || !c.Destination.Headers[0].Secret || c.Destination.Headers[0].Value != "Bearer t" {
					t.Fatalf("%+v", c.Destination.Headers)
				}
			}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c, err := decodeSub(t, eventschema.EventGrid, tc.body)
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, c)
		})
	}
}

func TestDecodeSubscriptionRejected(t *testing.T) {
	wh := `"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://x"}}`
	tests := map[string]struct {
		schema eventschema.Schema
		body   string
		code   string
		msg    string
	}{
		"no properties":          {0, `{}`, CodeInvalidDestination, "Destination is required"},
		"no destination":         {0, `{"properties":{}}`, CodeInvalidDestination, "Destination is required"},
		"no endpointType":        {0, `{"properties":{"destination":{"properties":{}}}}`, CodeInvalidDestination, "EndpointType is required"},
		"unknown endpointType":   {0, `{"properties":{"destination":{"endpointType":"Pigeon"}}}`, CodeInvalidDestination, "unknown"},
		"eventHub unsupported":   {0, `{"properties":{"destination":{"endpointType":"eventHub"}}}`, CodeInvalidDestination, "not supported"},
		"name mismatch":          {0, `{"name":"sub2","properties":{` + wh + `}}`, CodeInvalidName, "does not match"},
		"topic mismatch":         {0, `{"properties":{"topicName":"other",` + wh + `}}`, CodeInvalidName, "TopicName"},
		"Topic mismatch":         {0, `{"properties":{"Topic":"other",` + wh + `}}`, CodeInvalidName, "Topic"},
		"schema mismatch":        {0, `{"properties":{"eventDeliverySchema":"CustomEventSchema",` + wh + `}}`, CodeInvalidDeliverySchema, "must match"},
		"schema unknown":         {0, `{"properties":{"eventDeliverySchema":"X",` + wh + `}}`, CodeInvalidDeliverySchema, "not supported"},
		"attempts zero":          {0, `{"properties":{"retryPolicy":{"maxDeliveryAttempts":0},` + wh + `}}`, CodeInvalidRetryPolicy, "between 1 and 100"},
		"attempts too many":      {0, `{"properties":{"retryPolicy":{"maxDeliveryAttempts":101},` + wh + `}}`, CodeInvalidRetryPolicy, "between 1 and 100"},
		"expiry too long":        {0, `{"properties":{"retryPolicy":{"eventExpiryInMinutes":1441},` + wh + `}}`, CodeInvalidRetryPolicy, "1440"},
		"expiry not a number":    {0, `{"properties":{"retryPolicy":{"eventExpiryInMinutes":"soon"},` + wh + `}}`, CodeInvalidRetryPolicy, "whole number"},
		"51 events per batch":    {0, `{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://x","maxEventsPerBatch":51}}}}`, CodeInvalidDestination, "between 1 and 50"},
		"1034 KB batch":          {0, `{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://x","preferredBatchSizeInKilobytes":1034}}}}`, CodeInvalidDestination, "between 1 and 1033"},
		"legacy too many events": {0, `{"properties":{"deliveryPolicy":{"maxEventsPerBatch":51},` + wh + `}}`, CodeInvalidDeliveryPolicy, "between 1 and 50"},
		"legacy too many bytes":  {0, `{"properties":{"deliveryPolicy":{"approxBatchSizeInBytes":1058577},` + wh + `}}`, CodeInvalidDeliveryPolicy, "1058576"},
		"bad persistence":        {0, `{"properties":{"persistencePolicy":{"isPersisted":"maybe"},` + wh + `}}`, CodeInvalidPersistencePolicy, "isPersisted"},
		"bad operator":           {0, `{"properties":{"filter":{"advancedFilters":[{"operatorType":"NumberBetween","key":"data.a","value":1}]},` + wh + `}}`, CodeInvalidFilter, "advancedFilters[0]"},
		"types not strings":      {0, `{"properties":{"filter":{"includedEventTypes":[1]},` + wh + `}}`, CodeInvalidFilter, "IncludedEventTypes"},
		"advanced not array":     {0, `{"properties":{"filter":{"advancedFilters":{"a":1}},` + wh + `}}`, CodeInvalidFilter, "AdvancedFilters"},
		"dynamic header":         {0, `{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://x","deliveryAttributeMappings":[{"name":"h","type":"Dynamic","properties":{"sourceField":"data.a"}}]}}}}`, CodeInvalidDestination, "only Static"},
		"url not a string":       {0, `{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":5}}}}`, CodeInvalidDestination, "EndpointUrl must be a string"},
		"bad subscription name":  {0, ``, CodeInvalidName, ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			subName := "sub1"
			if name == "bad subscription name" {
				subName = "sub/1"
			}
			_, err := DecodeSubscription("sampleTopic1", tc.schema, subName, []byte(tc.body), DefaultLimits())
			var re *Error
			if !errors.As(err, &re) || re.Code != tc.code || !strings.Contains(re.Message, tc.msg) {
				t.Fatalf("err = %v (%T), want %s containing %q", err, err, tc.code, tc.msg)
			}
		})
	}
}

func TestRenderSubscriptionEchoesWhatWasGiven(t *testing.T) {
	body := `{"properties":{"retryPolicy":{"maxDeliveryAttempts":3},"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://subscriber:4430","maxEventsPerBatch":10}}}}`
	c, err := decodeSub(t, eventschema.EventGrid, body)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(RenderSubscription(c, Identity{Hub: "h", Device: "d", Module: "m"}, ForAPI))
	want := `{"id":"/iotHubs/h/devices/d/modules/m/topics/sampleTopic1/eventSubscriptions/sub1","name":"sub1","type":"Microsoft.EventGrid/eventSubscriptions","properties":{"topicName":"sampleTopic1","topic":"sampleTopic1","eventDeliverySchema":"EventGridSchema","retryPolicy":{"maxDeliveryAttempts":3},"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://subscriber:4430","maxEventsPerBatch":10}}}}`
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestSecretsNotRendered(t *testing.T) {
	body := `{"properties":{"destination":{"endpointType":"EventGrid","properties":{"endpointUrl":"https://a.eventgrid.azure.net/api/events?api-version=2018-01-01","sasKey":"SECRETKEY","deliveryAttributeMappings":[{"name":"X-Key","type":"Static","properties":{"value":"HIDDEN","isSecret":true}}]}}}}`
	c, err := decodeSub(t, eventschema.EventGrid, body)
	if err != nil {
		t.Fatal(err)
	}
	api, _ := json.Marshal(RenderSubscription(c, Identity{}, ForAPI))
	if strings.Contains(string(api), "SECRETKEY") || strings.Contains(string(api), "HIDDEN") {
		t.Fatalf("secret rendered: %s", api)
	}
	store, _ := json.Marshal(RenderSubscription(c, Identity{}, ForStore))
	if !strings.Contains(string(store), "SECRETKEY") || !strings.Contains(string(store), "HIDDEN") {
		t.Fatalf("store form lost a secret: %s", store)
	}
}

// TestStoreRoundTrip: what the store renders decodes to the same configuration.
func TestStoreRoundTrip(t *testing.T) {
	bodies := []string{
		`{"properties":{"retryPolicy":{"eventExpiryInMinutes":30,"maxDeliveryAttempts":3},"persistencePolicy":{"isPersisted":true},"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://x/y?z=1","maxEventsPerBatch":10,"preferredBatchSizeInKilobytes":64,"deliveryAttributeMappings":[{"name":"A","type":"Static","properties":{"value":"v","isSecret":true}}]}},"filter":{"subjectBeginsWith":"a","subjectEndsWith":"b","isSubjectCaseSensitive":true,"includedEventTypes":["x"],"advancedFilters":[{"operatorType":"NumberIn","key":"data.k","values":[1,2]},{"operatorType":"BoolEquals","key":"data.b","value":true}]}}}`,
		`{"properties":{"deliveryPolicy":{"maxEventsPerBatch":25},"destination":{"endpointType":"EdgeHub","properties":{"outputName":"o"}}}}`,
		`{"properties":{"destination":{"endpointType":"EventGrid","properties":{"endpointUrl":"https://a.eventgrid.azure.net/api/events?api-version=2018-01-01","sasKey":"k","topicName":""}}}}`,
	}
	for i, body := range bodies {
		c, err := decodeSub(t, eventschema.EventGrid, body)
		if err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		raw, _ := json.Marshal(RenderSubscription(c, Identity{}, ForStore))
		back, err := DecodeSubscription("sampleTopic1", eventschema.EventGrid, "sub1", raw, DefaultLimits())
		if err != nil {
			t.Fatalf("%d: decode of %s: %v", i, raw, err)
		}
		if !reflect.DeepEqual(c, back) {
			t.Fatalf("%d: round trip differs\n%+v\n%+v", i, c, back)
		}
	}
}

func FuzzDecodeSubscription(f *testing.F) {
	f.Add(`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://x"}}}}`)
	f.Add(`{"Properties":{"Filter":{"AdvancedFilters":"[{\"operatorType\":\"StringIn\",\"key\":\"a\",\"values\":[\"x\"]}]"},"Destination":{"EndpointType":"edgehub","Properties":{"OutputName":"o"}}}}`)
	f.Fuzz(func(t *testing.T, body string) {
		c, err := DecodeSubscription("t", eventschema.EventGrid, "s", []byte(body), DefaultLimits())
		if err != nil {
			var re *Error
			if !errors.As(err, &re) || re.Message == "" {
				t.Fatalf("error without code/message: %v", err)
			}
			return
		}
		if _, err := json.Marshal(RenderSubscription(c, Identity{}, ForAPI)); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzDecodeTopic(f *testing.F) {
	f.Add("t", `{"name":"t","properties":{"inputSchema":"CustomSchema"}}`)
	f.Fuzz(func(t *testing.T, name, body string) {
		_, err := DecodeTopic(name, []byte(body))
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Fatalf("unexpected error type %T", err)
		}
	})
}
