package eventgrid_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"

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
		"no key":                  {strict, good, "", "SasKey must be specified"},
		"empty url":               {strict, "", "k", "must be specified"},
		"relative url":            {strict, "/api/events?api-version=2018-01-01", "k", "absolute"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			err := tc.opts.ValidateEndpoint(&destination.Endpoint{Type: destination.EventGrid, URL: tc.url, SASKey: tc.key})
			checkInvalid(t, err, tc.want)
		})
	}
}

// TestValidateAuthentication: a key, or Entra ID when the module has a
// credential; every other combination is refused with a message saying what
// to configure.
func TestValidateAuthentication(t *testing.T) {
	cred, err := azidentity.NewClientSecretCredential("tenant", "client", "secret", nil)
	if err != nil {
		t.Fatal(err)
	}
	url := "https://t.westus2-1.eventgrid.azure.net/api/events?api-version=2018-01-01"
	none := eventgrid.Options{HTTPSOnly: true}
	entra := eventgrid.Options{HTTPSOnly: true, Credential: cred}
	tests := map[string]struct {
		opts eventgrid.Options
		auth destination.Authentication
		key  string
		want string
	}{
		"key, no credential":                {none, destination.AuthDefault, "k", ""},
		"no key, no credential":             {none, destination.AuthDefault, "", "AZURE_CLIENT_SECRET"},
		"no key, credential: Entra ID":      {entra, destination.AuthDefault, "", ""},
		"key and credential: key":           {entra, destination.AuthDefault, "k", ""},
		"SasKey without key":                {entra, destination.AuthSASKey, "", "SasKey must be specified when Authentication is SasKey"},
		"SasKey with key":                   {none, destination.AuthSASKey, "k", ""},
		"EntraId without credential":        {none, destination.AuthEntraID, "", "Authentication EntraId needs an Entra ID credential"},
		"EntraId with credential":           {entra, destination.AuthEntraID, "", ""},
		"EntraId with a key is ambiguous":   {entra, destination.AuthEntraID, "k", "must not be given"},
		"unknown method (not via resource)": {entra, destination.Authentication("Kerberos"), "", "unknown"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			err := tc.opts.ValidateEndpoint(&destination.Endpoint{Type: destination.EventGrid, URL: url, SASKey: tc.key, Authentication: tc.auth})
			checkInvalid(t, err, tc.want)
		})
	}
}

func checkInvalid(t *testing.T, err error, want string) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	if !errors.Is(err, destination.ErrInvalidEndpoint) || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want %q", err, want)
	}
}

func TestSendWithSASKeyAndTopicRewrite(t *testing.T) {
	r := newRig(t, testenv.CloudOptions{Key: "KEY"}, eventgrid.Options{})
	for _, tc := range []struct {
		topicName *string
		want      any
	}{{nil, nil}, {ptr("cloudTopic"), "cloudTopic"}, {ptr(""), ""}} {
		s := r.sender(t, func(ep *destination.Endpoint) { ep.SASKey, ep.TopicName = "KEY", tc.topicName })
		evs := parse(t, eventschema.EventGrid, `[{"id":"eventId-egcloud-0","eventType":"recordInserted","subject":"myapp/vehicles/motorcycles","eventTime":"2019-07-28T21:03:07+00:00","dataVersion":"1.0","data":{"make":"Ducati"}}]`)
		if res := deliver(s, eventschema.EventGrid, evs); res.Outcome != destination.Delivered {
			t.Fatalf("result %+v", res)
		}
		req := r.cloud.Requests()[len(r.cloud.Requests())-1]
		var got []map[string]any
		if err := json.Unmarshal(req.Body, &got); err != nil || got[0]["topic"] != tc.want || req.Auth != "sas" {
			t.Fatalf("cloud got %s (auth %q)", req.Body, req.Auth)
		}
		if _, present := got[0]["topic"]; !present {
			t.Fatalf("topic must be present (null when topicName is not set): %s", req.Body)
		}
	}
}

func ptr[T any](v T) *T { return &v }
