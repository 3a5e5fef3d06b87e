package eventgrid

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/eventschema"
)

// Factory creates EventGrid senders sharing one HTTP client and credential.
type Factory struct {
	opts   Options
	client *http.Client
}

var _ destination.Factory = (*Factory)(nil)

// NewFactory uses client for requests to the cloud (nil: a client with TLS
// 1.2+, the system roots and the proxy from the environment; redirects are
// never followed, so keys and tokens go nowhere else).
func NewFactory(opts Options, client *http.Client) *Factory {
	opts.setDefaults()
	if client == nil {
		client = &http.Client{Transport: &http.Transport{Proxy: http.ProxyFromEnvironment, ForceAttemptHTTP2: true,
			TLSHandshakeTimeout: 10 * time.Second, IdleConnTimeout: 90 * time.Second, MaxIdleConnsPerHost: 16}}
	}
	c := *client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &Factory{opts: opts, client: &c}
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
	s := &Sender{f: f, url: ep.URL, topic: topic, auth: sasKey(ep.SASKey)}
	if usesEntraID(ep) {
		s.auth = entraID{cred: f.opts.Credential}
	}
	return s, nil
}

// Sender forwards to one cloud topic for one subscription.
type Sender struct {
	f     *Factory
	url   string
	topic json.RawMessage
	auth  authorizer
	// refused is set while the cloud or Entra ID refuses this subscription's
	// credentials, so the cause is logged once; a delivery clears it.
	refused atomic.Bool
}

var _ destination.Sender = (*Sender)(nil)

// Send forwards the delivery in as many requests as the cloud's size limit
// needs, one after the other. The delivery succeeds only if every request
// does; otherwise the first failure is the result, and the broker retries or
// drops the whole delivery (at-least-once: the cloud may see some events
// twice). Events too large for any request are refused (Result.Refused) and
// the others still sent; a delivery of only such events is dropped (Drop,
// with every event in Refused).
func (s *Sender) Send(ctx context.Context, d *destination.Delivery) destination.Result {
	start := time.Now()
	p, err := s.plan(d)
	if err != nil {
		return destination.Result{Outcome: destination.Drop, Reason: "BadRequest", Err: err}
	}
	if len(p.bodies) == 0 {
		r := p.refused[0]
		return destination.Result{Outcome: destination.Drop, Reason: r.Reason, Err: errors.New(r.Detail),
			Refused: p.refused, Duration: time.Since(start)}
	}
	var res destination.Result
	var cause string
	for _, body := range p.bodies {
		if res, cause = s.post(ctx, d.Schema, body); res.Outcome != destination.Delivered {
			break
		}
	}
	res.Refused = p.refused
	res.Duration = time.Since(start)
	if ctx.Err() == nil { // not a shutdown or subscription change
		s.report(d, res, cause)
	}
	return res
}

// post makes one request. cause is the cloud's error message, if it sent one.
func (s *Sender) post(ctx context.Context, schema eventschema.Schema, body []byte) (destination.Result, string) {
	ctx, cancel := context.WithTimeout(ctx, s.f.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		return destination.Result{Outcome: destination.Drop, Reason: "BadRequest", Err: err}, ""
	}
	req.Header.Set("Content-Type", ContentType(schema))
	req.Header.Set("User-Agent", s.f.opts.UserAgent)
	if err := s.auth.authorize(ctx, req.Header); err != nil {
		var te *tokenError
		if errors.As(err, &te) {
			return te.result(), ""
		}
		return destination.Classify(0, err), ""
	}
	resp, err := s.f.client.Do(req)
	if err != nil {
		return destination.Classify(0, err), ""
	}
	defer resp.Body.Close()
	res := destination.Classify(resp.StatusCode, nil)
	if res.Outcome == destination.Delivered {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDrain))
		return res, ""
	}
	return res, cloudMessage(resp.Body)
}

// ContentType is the request content type the cloud expects for a schema:
// the CloudEvents batched format, or JSON for Event Grid and custom events.
func ContentType(s eventschema.Schema) string {
	if s == eventschema.CloudEvents {
		return "application/cloudevents-batch+json; charset=utf-8"
	}
	return "application/json"
}

// Close has nothing to release; the client and credential are the factory's.
func (s *Sender) Close() error { return nil }
