package eventgrid

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"time"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/eventschema"
)

// requestTimeout bounds one request to the cloud, as for webhooks.
const requestTimeout = 60 * time.Second

// Factory creates EventGrid senders sharing one HTTP client.
type Factory struct {
	opts   Options
	client *http.Client
}

var _ destination.Factory = (*Factory)(nil)

// NewFactory uses client for requests (nil: a default client with TLS 1.2+).
func NewFactory(opts Options, client *http.Client) *Factory {
	if client == nil {
		client = &http.Client{Transport: &http.Transport{Proxy: http.ProxyFromEnvironment, ForceAttemptHTTP2: true,
			TLSHandshakeTimeout: 10 * time.Second, IdleConnTimeout: 90 * time.Second}}
	}
	return &Factory{opts: opts, client: client}
}

// Validate checks an endpoint against the documented rules.
func (f *Factory) Validate(ep *destination.Endpoint) error { return f.opts.ValidateEndpoint(ep) }

// New returns a sender for a validated endpoint.
func (f *Factory) New(ep *destination.Endpoint) (destination.Sender, error) {
	if err := f.Validate(ep); err != nil {
		return nil, err
	}
	topic := json.RawMessage("null")
	if ep.TopicName != nil {
		topic, _ = json.Marshal(*ep.TopicName)
	}
	return &Sender{f: f, url: ep.URL, key: ep.SASKey, topic: topic}, nil
}

// Sender forwards to one cloud topic.
type Sender struct {
	f     *Factory
	url   string
	key   string
	topic json.RawMessage
}

// Send posts the events as one array: Event Grid events with their topic set to
// the destination's topicName (or nulled), custom and CloudEvents unchanged.
func (s *Sender) Send(ctx context.Context, d *destination.Delivery) destination.Result {
	start := time.Now()
	body, err := s.body(d)
	if err != nil {
		return destination.Result{Outcome: destination.Drop, Reason: "BadRequest", Err: err}
	}
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		return destination.Result{Outcome: destination.Drop, Reason: "BadRequest", Err: err}
	}
	req.Header.Set("Content-Type", contentType(d.Schema))
	req.Header.Set("aeg-sas-key", s.key)
	resp, err := s.f.client.Do(req)
	if err != nil {
		r := destination.Classify(0, err)
		r.Duration = time.Since(start)
		return r
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	r := destination.Classify(resp.StatusCode, nil)
	r.Duration = time.Since(start)
	return r
}

func (s *Sender) body(d *destination.Delivery) ([]byte, error) {
	if d.Schema != eventschema.EventGrid {
		return eventschema.AppendBatch(nil, d.Events), nil
	}
	out := []byte{'['}
	for i, ev := range d.Events {
		raw, err := eventschema.WithTopic(ev, s.topic)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, raw...)
	}
	return append(out, ']'), nil
}

func contentType(s eventschema.Schema) string {
	if s == eventschema.CloudEvents {
		return "application/cloudevents-batch+json; charset=utf-8"
	}
	return "application/json"
}

// Close has nothing to release.
func (s *Sender) Close() error { return nil }
