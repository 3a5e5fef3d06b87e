package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

const apiVersion = "?api-version=2019-01-01-preview"

// check runs the scenario against the module at base: health, topic,
// subscription to sub, publish, and the delivery of exactly that event. The
// topic stays, so a restarted module can be checked with -existing.
func check(ctx context.Context, o options, base string, sub *subscriber, log io.Writer) error {
	c := newClient(base)
	if err := c.waitHealthy(ctx); err != nil {
		return err
	}
	fmt.Fprintf(log, "smoke: %s/api/health answers 200\n", base)
	topicPath := "/topics/" + o.topic
	subPath := topicPath + "/eventSubscriptions/" + o.topic + "Sub"
	if o.existing {
		for _, p := range []string{topicPath, subPath} {
			if _, err := c.do(ctx, http.MethodGet, p, ""); err != nil {
				return fmt.Errorf("expected to exist already: %w", err)
			}
		}
		fmt.Fprintln(log, "smoke: topic and subscription exist")
	} else if _, err := c.do(ctx, http.MethodPut, topicPath, `{"properties":{"inputSchema":"EventGridSchema"}}`); err != nil {
		return err
	}
	endpoint := sub.endpoint(o.callbackHost)
	body := `{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"` + endpoint + `"}}}}`
	if _, err := c.do(ctx, http.MethodPut, subPath, body); err != nil {
		return err
	}
	id := "smoke-" + nonce()
	event := fmt.Sprintf(`[{"id":%q,"eventType":"edgegrid.smoke","subject":"smoke/%s","eventTime":%q,"dataVersion":"1.0","data":{"nonce":%q}}]`,
		id, o.topic, time.Now().UTC().Format(time.RFC3339), id)
	start := time.Now()
	if _, err := c.do(ctx, http.MethodPost, topicPath+"/events", event); err != nil {
		return err
	}
	got, err := sub.await(ctx, id)
	if err != nil {
		return fmt.Errorf("event %s published to %s was not delivered to %s: %w", id, base, endpoint, err)
	}
	if err := verify(got, o.topic, id); err != nil {
		return err
	}
	fmt.Fprintf(log, "smoke: event %s delivered to %s in %v\n", id, endpoint, time.Since(start).Round(time.Millisecond))
	return nil
}

// verify checks one delivery against what was published: one Event Grid
// event with the topic and metadataVersion the module adds, and the headers
// every WebHook delivery carries.
func verify(d delivery, topic, id string) error {
	if got := d.header.Get("aeg-event-type"); got != "Notification" {
		return fmt.Errorf("aeg-event-type %q, want Notification", got)
	}
	if got := d.header.Get("aeg-subscription-name"); !strings.EqualFold(got, topic+"Sub") {
		return fmt.Errorf("aeg-subscription-name %q, want %sSub", got, topic)
	}
	var events []struct {
		ID, Topic, Subject, EventType, MetadataVersion string
		Data                                           struct{ Nonce string }
	}
	if err := json.Unmarshal(d.body, &events); err != nil {
		return fmt.Errorf("delivered body is not a JSON array of events: %w: %s", err, d.body)
	}
	if len(events) != 1 {
		return fmt.Errorf("delivered %d events, want 1: %s", len(events), d.body)
	}
	e := events[0]
	if e.ID != id || !strings.EqualFold(e.Topic, topic) || e.EventType != "edgegrid.smoke" ||
		e.MetadataVersion != "1" || e.Data.Nonce != id || e.Subject != "smoke/"+topic {
		return fmt.Errorf("delivered event differs from the published one: %s", d.body)
	}
	return nil
}

func nonce() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
