package webhook_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/destination/webhook"
	"github.com/edgegrid/edgegrid/eventschema"
)

// validatingSubscriber answers the Event Grid validation event as configured.
func validatingSubscriber(t *testing.T, status int, echo bool) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var evs []struct {
			EventType string `json:"eventType"`
			Data      struct {
				ValidationCode string `json:"validationCode"`
			} `json:"data"`
		}
		if r.Header.Get("aeg-event-type") != "SubscriptionValidation" || json.Unmarshal(body, &evs) != nil || len(evs) != 1 ||
			evs[0].EventType != "Microsoft.EventGrid.SubscriptionValidationEvent" {
			w.WriteHeader(400)
			return
		}
		code := evs[0].Data.ValidationCode
		if !echo {
			code = "wrong"
		}
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]string{"validationResponse": code})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestValidationEventHandshake(t *testing.T) {
	tests := map[string]struct {
		status int
		echo   bool
		ok     bool
	}{
		"200 with the code":     {200, true, true},
		"202 does not count":    {202, true, false},
		"200 with another code": {200, false, false},
		"500":                   {500, true, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			srv := validatingSubscriber(t, tc.status, tc.echo)
			f := webhook.NewFactory(webhook.Options{})
			err := f.Handshake(context.Background(), &destination.Endpoint{Type: destination.WebHook, URL: srv.URL},
				destination.HandshakeInfo{Subscription: "s", Topic: "t", Schema: eventschema.EventGrid})
			if (err == nil) != tc.ok || (err != nil && !errors.Is(err, destination.ErrInvalidEndpoint)) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func TestCloudEventsAbuseProtection(t *testing.T) {
	tests := map[string]struct {
		allowed string
		status  int
		ok      bool
	}{
		"origin granted": {"eventgrid.azure.net", 200, true},
		"any origin":     {"*", 204, true},
		"not granted":    {"", 200, false},
		"other origin":   {"example.com", 200, false},
		"405":            {"*", 405, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var gotOrigin, deliveryOrigin string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodOptions {
					gotOrigin = r.Header.Get("WebHook-Request-Origin")
					if tc.allowed != "" {
						w.Header().Set("WebHook-Allowed-Origin", tc.allowed)
					}
					w.WriteHeader(tc.status)
					return
				}
				deliveryOrigin = r.Header.Get("WebHook-Request-Origin")
			}))
			defer srv.Close()
			f := webhook.NewFactory(webhook.Options{})
			ep := &destination.Endpoint{Type: destination.WebHook, URL: srv.URL, Handshake: true}
			err := f.Handshake(context.Background(), ep, destination.HandshakeInfo{Schema: eventschema.CloudEvents})
			if (err == nil) != tc.ok || gotOrigin != "eventgrid.azure.net" {
				t.Fatalf("err = %v, origin %q", err, gotOrigin)
			}
			if !tc.ok {
				return
			}
			s, _ := f.New(ep)
			evs, _ := eventschema.Parse(eventschema.CloudEvents, []byte(`{"id":"1","source":"s","type":"t","specversion":"1.0"}`), eventschema.Options{Shape: eventschema.ShapeObject})
			if r := s.Send(context.Background(), &destination.Delivery{Schema: eventschema.CloudEvents, Events: evs}); r.Outcome != destination.Delivered {
				t.Fatalf("delivery %+v", r)
			}
			if deliveryOrigin != "eventgrid.azure.net" {
				t.Fatalf("deliveries must carry the granted origin, got %q", deliveryOrigin)
			}
		})
	}
}
