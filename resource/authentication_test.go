package resource

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/eventschema"
)

const cloudURL = "https://t.westus2-1.eventgrid.azure.net/api/events?api-version=2018-01-01"

// TestAuthenticationProperty: the EventGrid destination's "authentication"
// property is read in any case (and PascalCase, and through the module twin's
// properties form), rendered back without the key, and survives the store.
func TestAuthenticationProperty(t *testing.T) {
	tests := map[string]struct {
		props string
		want  destination.Authentication
	}{
		"absent":          {`"endpointUrl":"` + cloudURL + `","sasKey":"k"`, destination.AuthDefault},
		"null":            {`"endpointUrl":"` + cloudURL + `","sasKey":"k","authentication":null`, destination.AuthDefault},
		"EntraId":         {`"endpointUrl":"` + cloudURL + `","authentication":"EntraId"`, destination.AuthEntraID},
		"entraid":         {`"endpointUrl":"` + cloudURL + `","authentication":"entraid"`, destination.AuthEntraID},
		"PascalCase name": {`"EndpointUrl":"` + cloudURL + `","Authentication":"SASKEY","SasKey":"k"`, destination.AuthSASKey},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c, err := decodeSub(t, eventschema.EventGrid, `{"properties":{"destination":{"endpointType":"EventGrid","properties":{`+tc.props+`}}}}`)
			if err != nil {
				t.Fatal(err)
			}
			if c.Destination.Authentication != tc.want {
				t.Fatalf("authentication %q, want %q", c.Destination.Authentication, tc.want)
			}
			api, _ := json.Marshal(RenderSubscription(c, Identity{}, ForAPI))
			if tc.want != "" && !strings.Contains(string(api), `"authentication":"`+string(tc.want)+`"`) {
				t.Fatalf("not rendered: %s", api)
			}
			if strings.Contains(string(api), "sasKey") {
				t.Fatalf("key rendered: %s", api)
			}
			stored, _ := json.Marshal(RenderSubscription(c, Identity{}, ForStore))
			back, err := DecodeSubscription("sampleTopic1", eventschema.EventGrid, "sub1", stored, DefaultLimits())
			if err != nil || !reflect.DeepEqual(back, c) {
				t.Fatalf("store round trip: %v\n%+v\n%+v", err, back, c)
			}
		})
	}
	twin, err := DecodeSubscriptionProperties("sampleTopic1", eventschema.EventGrid, "sub1",
		[]byte(`{"destination":{"endpointType":"eventGrid","properties":{"endpointUrl":"`+cloudURL+`","authentication":"EntraId"}}}`), DefaultLimits())
	if err != nil || twin.Destination.Authentication != destination.AuthEntraID {
		t.Fatalf("twin form: %v %+v", err, twin.Destination)
	}
}

func TestAuthenticationPropertyRefused(t *testing.T) {
	tests := map[string]struct{ dest, msg string }{
		"unknown method": {`{"endpointType":"EventGrid","properties":{"endpointUrl":"` + cloudURL + `","authentication":"Kerberos"}}`, "Authentication 'Kerberos' is unknown; use SasKey or EntraId."},
		"not a string":   {`{"endpointType":"EventGrid","properties":{"endpointUrl":"` + cloudURL + `","authentication":1}}`, "Authentication must be a string."},
		"on a webhook":   {`{"endpointType":"WebHook","properties":{"endpointUrl":"https://x","authentication":"EntraId"}}`, "Authentication applies only to EventGrid destinations."},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := decodeSub(t, eventschema.EventGrid, `{"properties":{"destination":`+tc.dest+`}}`)
			var re *Error
			if !errors.As(err, &re) || re.Code != CodeInvalidDestination || !strings.HasSuffix(re.Message, tc.msg) {
				t.Fatalf("err = %v, want %q", err, tc.msg)
			}
		})
	}
}
