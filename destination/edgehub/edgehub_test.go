package edgehub_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/destination/edgehub"
)

func TestValidateEndpoint(t *testing.T) {
	tests := map[string]struct {
		name string
		want string
	}{
		"documented": {"sampleSub4", ""},
		"dashes":     {"twin-Topic2_EdgeHubSub", ""},
		"empty":      {"", "must be specified"},
		"slash":      {"a/b", "must not contain"},
		"wildcard":   {"a#", "must not contain"},
		"space":      {"a b", "spaces"},
		"too long":   {strings.Repeat("o", 257), "at most 256"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			err := edgehub.ValidateEndpoint(&destination.Endpoint{Type: destination.EdgeHub, OutputName: tc.name})
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, destination.ErrInvalidEndpoint) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func TestOfflineSenderRetries(t *testing.T) {
	s, err := edgehub.OfflineFactory{}.New(&destination.Endpoint{Type: destination.EdgeHub, OutputName: "o"})
	if err != nil {
		t.Fatal(err)
	}
	r := s.Send(context.Background(), &destination.Delivery{})
	if r.Outcome != destination.Retry || !errors.Is(r.Err, edgehub.ErrNotConnected) {
		t.Fatalf("%+v", r)
	}
}
