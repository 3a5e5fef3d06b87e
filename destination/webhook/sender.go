package webhook

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/eventschema"
)

// Factory creates WebHook senders sharing one HTTP transport.
type Factory struct {
	opts      Options
	client    *http.Client
	transport *http.Transport
	bufs      sync.Pool
}

var _ destination.Factory = (*Factory)(nil)

// NewFactory builds the shared transport from opts.
func NewFactory(opts Options) *Factory {
	opts.setDefaults()
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	tr := &http.Transport{
		Proxy:                 nil, // a gateway module talks to local subscribers directly
		DialContext:           dialer.DialContext,
		DialTLSContext:        opts.dialTLS(dialer),
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   opts.MaxConnsPerHost,
		MaxConnsPerHost:       opts.MaxConnsPerHost,
		IdleConnTimeout:       90 * time.Second,
		ExpectContinueTimeout: time.Second,
		ForceAttemptHTTP2:     false,
	}
	f := &Factory{opts: opts, transport: tr}
	f.client = &http.Client{
		Transport: tr,
		// CloudEvents webhook spec: redirects must not be followed; a 3xx is a failed attempt.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	f.bufs.New = func() any { return new(bytes.Buffer) }
	return f
}

// New returns a sender for ep after validating it.
func (f *Factory) New(ep *destination.Endpoint) (destination.Sender, error) {
	if err := f.Validate(ep); err != nil {
		return nil, err
	}
	h := make(http.Header, len(ep.Headers))
	for _, x := range ep.Headers {
		h.Set(x.Name, x.Value)
	}
	if ep.Handshake {
		// Once the CloudEvents abuse protection granted delivery, the origin
		// accompanies every request (for Event Grid deliveries it is harmless).
		h.Set("WebHook-Request-Origin", RequestOrigin)
	}
	return &Sender{f: f, url: ep.URL, headers: h}, nil
}

// CloseIdle releases idle connections (at shutdown).
func (f *Factory) CloseIdle() { f.transport.CloseIdleConnections() }

// Sender delivers to one webhook URL.
type Sender struct {
	f       *Factory
	url     string
	headers http.Header
}

var _ destination.Sender = (*Sender)(nil)

// ContentType is the request content type for a delivery schema: an array of
// Event Grid or custom events is JSON; an array of CloudEvents is the CloudEvents
// batched format.
func ContentType(s eventschema.Schema) string {
	if s == eventschema.CloudEvents {
		return "application/cloudevents-batch+json; charset=utf-8"
	}
	return "application/json; charset=utf-8"
}

// Send posts the events as one JSON array and classifies the answer.
func (s *Sender) Send(ctx context.Context, d *destination.Delivery) destination.Result {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, s.f.opts.Timeout)
	defer cancel()
	buf := s.f.bufs.Get().(*bytes.Buffer)
	defer s.f.putBuf(buf)
	buf.Reset()
	buf.Write(eventschema.AppendBatch(buf.AvailableBuffer(), d.Events))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(buf.Bytes()))
	if err != nil {
		r := destination.Classify(0, err)
		r.Outcome = destination.Drop
		return r
	}
	s.setHeaders(req.Header, d)
	resp, err := s.f.client.Do(req)
	if err != nil {
		r := destination.Classify(0, err)
		r.Duration = time.Since(start)
		return r
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDrain))
	_ = resp.Body.Close()
	r := destination.Classify(resp.StatusCode, nil)
	r.Duration = time.Since(start)
	return r
}

func (f *Factory) putBuf(b *bytes.Buffer) {
	if b.Cap() <= 2<<20 {
		f.bufs.Put(b)
	}
}

// setHeaders writes the headers cloud Event Grid sends with a notification.
func (s *Sender) setHeaders(h http.Header, d *destination.Delivery) {
	for k, v := range s.headers {
		h[k] = v
	}
	h.Set("Content-Type", ContentType(d.Schema))
	h.Set("User-Agent", s.f.opts.UserAgent)
	h.Set("aeg-event-type", "Notification")
	h.Set("aeg-subscription-name", d.Subscription)
	h.Set("aeg-delivery-count", strconv.Itoa(d.PriorAttempts))
	if d.Schema == eventschema.EventGrid {
		h.Set("aeg-metadata-version", "1")
		if len(d.Events) > 0 {
			h.Set("aeg-data-version", d.Events[0].DataVersion)
		}
	}
}

// Close has nothing to release per sender; the transport is the factory's.
func (s *Sender) Close() error { return nil }
