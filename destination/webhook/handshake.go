package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/eventschema"
)

// Handshake constants, as cloud Event Grid uses them.
const (
	handshakeTimeout = 30 * time.Second
	// RequestOrigin is the CloudEvents abuse-protection origin edgegrid sends;
	// subscribers written for cloud Event Grid check for this value.
	RequestOrigin      = "eventgrid.azure.net"
	validationType     = "Microsoft.EventGrid.SubscriptionValidationEvent"
	maxValidationReply = 64 << 10
)

var _ destination.Handshaker = (*Factory)(nil)

// Handshake proves that the endpoint wants the events before a subscription is
// created: CloudEvents subscriptions get the CloudEvents webhook abuse-protection
// OPTIONS exchange; the others get cloud Event Grid's synchronous validation (a
// SubscriptionValidationEvent the endpoint must answer with 200 and
// {"validationResponse": "<code>"}; 202 does not count).
func (f *Factory) Handshake(ctx context.Context, ep *destination.Endpoint, info destination.HandshakeInfo) error {
	ctx, cancel := context.WithTimeout(ctx, handshakeTimeout)
	defer cancel()
	var err error
	if info.Schema == eventschema.CloudEvents {
		err = f.abuseProtection(ctx, ep)
	} else {
		err = f.validationEvent(ctx, ep, info)
	}
	if err != nil {
		return fmt.Errorf("%w: the webhook validation handshake failed: %v", destination.ErrInvalidEndpoint, err)
	}
	return nil
}

func (f *Factory) validationEvent(ctx context.Context, ep *destination.Endpoint, info destination.HandshakeInfo) error {
	code := eventschema.NewID()
	ev := []map[string]any{{
		"id": eventschema.NewID(), "topic": info.Topic, "subject": "", "eventType": validationType,
		"eventTime": time.Now().UTC().Format(time.RFC3339Nano), "dataVersion": "1", "metadataVersion": "1",
		"data": map[string]any{"validationCode": code, "validationUrl": nil},
	}}
	body, _ := json.Marshal(ev)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("aeg-event-type", "SubscriptionValidation")
	req.Header.Set("aeg-subscription-name", info.Subscription)
	resp, err := f.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	reply, _ := io.ReadAll(io.LimitReader(resp.Body, maxValidationReply))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("the endpoint answered %d; it must answer 200 with the validation code", resp.StatusCode)
	}
	var r map[string]any
	if json.Unmarshal(reply, &r) != nil {
		return fmt.Errorf("the answer is not a JSON object with validationResponse")
	}
	for k, v := range r {
		if strings.EqualFold(k, "validationResponse") && v == code {
			return nil
		}
	}
	return fmt.Errorf("the answer does not echo the validation code in validationResponse")
}

func (f *Factory) abuseProtection(ctx context.Context, ep *destination.Endpoint) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodOptions, ep.URL, nil)
	if err != nil {
		return err
	}
	req.Header.Set("WebHook-Request-Origin", RequestOrigin)
	resp, err := f.client.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxValidationReply))
	resp.Body.Close()
	allowed := resp.Header.Get("WebHook-Allowed-Origin")
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("OPTIONS answered %d", resp.StatusCode)
	}
	if allowed != "*" && !strings.EqualFold(allowed, RequestOrigin) {
		return fmt.Errorf("OPTIONS did not grant WebHook-Allowed-Origin %s (got %q)", RequestOrigin, allowed)
	}
	return nil
}
