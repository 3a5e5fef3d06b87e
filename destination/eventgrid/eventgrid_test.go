package eventgrid_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/destination/eventgrid"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

func TestValidateEndpoint(t *testing.T) {
	good := "https://testegcloudtopic.westus2-1.eventgrid.azure.net/api/events?api-version=2018-01-01"
	strict := eventgrid.Options{HTTPSOnly: true}
	tests := map[string]struct {
		opts eventgrid.Options
		url  string
		key  string
		want string
	}{
		"documented example":      {strict, good, "k", ""},
		"azure.us":                {strict, "https://t.usgovvirginia-1.eventgrid.azure.us/api/events?api-version=2018-01-01", "k", ""},
		"azure.cn":                {strict, "https://t.chinaeast-1.eventgrid.azure.cn/api/events?api-version=2018-01-01", "k", ""},
		"no /api/events":          {strict, "https://t.westus2-1.eventgrid.azure.net/?api-version=2018-01-01", "k", "/api/events"},
		"no api-version":          {strict, "https://t.westus2-1.eventgrid.azure.net/api/events", "k", "api-version=2018-01-01"},
		"wrong api-version":       {strict, "https://t.westus2-1.eventgrid.azure.net/api/events?api-version=2020-01-01", "k", "api-version=2018-01-01"},
		"http refused":            {strict, "http://t.westus2-1.eventgrid.azure.net/api/events?api-version=2018-01-01", "k", "httpsOnly"},
		"http allowed":            {eventgrid.Options{}, "http://t.westus2-1.eventgrid.azure.net/api/events?api-version=2018-01-01", "k", ""},
		"other host refused":      {strict, "https://evil.example.com/api/events?api-version=2018-01-01", "k", "allowInvalidHostnames"},
		"look-alike host refused": {strict, "https://eventgrid.azure.net.evil.example/api/events?api-version=2018-01-01", "k", "allowInvalidHostnames"},
		"other host allowed":      {eventgrid.Options{HTTPSOnly: true, AllowInvalidHostnames: true}, "https://127.0.0.1:9/api/events?api-version=2018-01-01", "k", ""},
		"no key":                  {strict, good, "", "SasKey"},
		"empty url":               {strict, "", "k", "must be specified"},
		"relative url":            {strict, "/api/events?api-version=2018-01-01", "k", "absolute"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			err := tc.opts.ValidateEndpoint(&destination.Endpoint{Type: destination.EventGrid, URL: tc.url, SASKey: tc.key})
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, destination.ErrInvalidEndpoint) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestSendWithSASKeyAndTopicRewrite(t *testing.T) {
	ca := testenv.NewCA(t, "cloud")
	cert := ca.ServerCert(t)
	cloud := testenv.NewTLSWebhook(t, &cert, 0)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: testenv.ClientTLS(ca)}}
	f := eventgrid.NewFactory(eventgrid.Options{HTTPSOnly: true, AllowInvalidHostnames: true}, client)
	for _, tc := range []struct {
		topicName *string
		want      any
	}{{nil, nil}, {ptr("cloudTopic"), "cloudTopic"}} {
		s, err := f.New(&destination.Endpoint{Type: destination.EventGrid, URL: cloud.URL + "/api/events?api-version=2018-01-01", SASKey: "KEY", TopicName: tc.topicName})
		if err != nil {
			t.Fatal(err)
		}
		evs, _ := eventschema.Parse(eventschema.EventGrid, []byte(`[{"id":"eventId-egcloud-0","eventType":"recordInserted","subject":"myapp/vehicles/motorcycles","eventTime":"2019-07-28T21:03:07+00:00","dataVersion":"1.0","data":{"make":"Ducati"}}]`), eventschema.Options{Topic: "sampleTopic3"})
		r := s.Send(context.Background(), &destination.Delivery{Subscription: "s", Schema: eventschema.EventGrid, Events: evs})
		if r.Outcome != destination.Delivered {
			t.Fatalf("result %+v", r)
		}
		req := cloud.Requests()[cloud.Count()-1]
		var got []map[string]any
		if err := json.Unmarshal(req.Body, &got); err != nil || got[0]["topic"] != tc.want || req.Header.Get("aeg-sas-key") != "KEY" {
			t.Fatalf("cloud got %s with key %q", req.Body, req.Header.Get("aeg-sas-key"))
		}
	}
}

func ptr[T any](v T) *T { return &v }
