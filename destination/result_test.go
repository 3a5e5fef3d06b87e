package destination

import (
	"context"
	"errors"
	"fmt"
	"net"
	"syscall"
	"testing"
)

func TestClassifyStatus(t *testing.T) {
	tests := map[string]struct {
		status  int
		outcome Outcome
		reason  string
	}{
		"200": {200, Delivered, "Delivered"}, "201": {201, Delivered, "Delivered"},
		"202": {202, Delivered, "Delivered"}, "203": {203, Delivered, "Delivered"},
		"204":                {204, Delivered, "Delivered"},
		"205 is not success": {205, Retry, "Reset Content"},
		"302 is not success": {302, Retry, "Found"},
		"400 never retried":  {400, Drop, "BadRequest"},
		"401 never retried":  {401, Drop, "Unauthorized"},
		"403 never retried":  {403, Drop, "Forbidden"},
		"413 never retried":  {413, Drop, "PayloadTooLarge"},
		"404 retried":        {404, Retry, "NotFound"},
		"408 retried":        {408, Retry, "TimedOut"},
		"429 retried":        {429, Retry, "Busy"},
		"500 retried":        {500, Retry, "Internal Server Error"},
		"503 retried":        {503, Retry, "Busy"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			r := Classify(tc.status, nil)
			if r.Outcome != tc.outcome || r.Reason != tc.reason || r.Status != tc.status {
				t.Fatalf("Classify(%d) = %+v", tc.status, r)
			}
		})
	}
}

func TestClassifyErrors(t *testing.T) {
	tests := map[string]struct {
		err    error
		reason string
	}{
		"deadline":      {fmt.Errorf("post: %w", context.DeadlineExceeded), "TimedOut"},
		"canceled":      {fmt.Errorf("post: %w", context.Canceled), "Canceled"},
		"dns":           {&net.DNSError{Err: "no such host", Name: "x"}, "ResolutionError"},
		"refused":       {&net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}, "SocketError"},
		"reset":         {fmt.Errorf("read: %w", syscall.ECONNRESET), "SocketError"},
		"anything else": {errors.New("tls: bad certificate"), "SocketError"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			r := Classify(0, tc.err)
			if r.Outcome != Retry || r.Reason != tc.reason || r.Err == nil {
				t.Fatalf("Classify(err) = %+v", r)
			}
		})
	}
}

func TestParseEndpointType(t *testing.T) {
	for in, want := range map[string]EndpointType{"WebHook": WebHook, "Webhook": WebHook, "webhook": WebHook,
		"edgeHub": EdgeHub, "EventGrid": EventGrid, "eventGrid": EventGrid, "mqtt": Mqtt} {
		if got, ok := ParseEndpointType(in); !ok || got != want {
			t.Errorf("ParseEndpointType(%q) = %v,%v", in, got, ok)
		}
	}
	if _, ok := ParseEndpointType("eventHub"); ok {
		t.Error("eventHub must not be supported")
	}
}
