package webhook_test

import (
	"context"
	"crypto/tls"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/destination/webhook"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

func events(t *testing.T, schema eventschema.Schema, body string) []*eventschema.Event {
	t.Helper()
	evs, err := eventschema.Parse(schema, []byte(body), eventschema.Options{Topic: "t1", Shape: eventschema.ShapeAny})
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

const egBody = `[{"id":"1","subject":"s","eventType":"t","eventTime":"x","dataVersion":"2.0","data":{"a":1}},{"id":"2","subject":"s","eventType":"t","eventTime":"x","dataVersion":"2.0"}]`

func newSender(t *testing.T, opts webhook.Options, ep destination.Endpoint) destination.Sender {
	t.Helper()
	f := webhook.NewFactory(opts)
	t.Cleanup(f.CloseIdle)
	s, err := f.New(&ep)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSendBodyAndHeaders(t *testing.T) {
	hook := testenv.NewWebhook(t)
	s := newSender(t, webhook.Options{}, destination.Endpoint{Type: destination.WebHook, URL: hook.URL + "/api/x?code=k",
		Headers: []destination.Header{{Name: "Authorization", Value: "Bearer abc"}}})
	evs := events(t, eventschema.EventGrid, egBody)
	r := s.Send(context.Background(), &destination.Delivery{Subscription: "sub1", Schema: eventschema.EventGrid, Events: evs, PriorAttempts: 2})
	if r.Outcome != destination.Delivered || r.Status != 200 {
		t.Fatalf("result %+v", r)
	}
	req := hook.Requests()[0]
	want := "[" + string(evs[0].Raw) + "," + string(evs[1].Raw) + "]"
	if string(req.Body) != want {
		t.Fatalf("body %s", req.Body)
	}
	for h, v := range map[string]string{
		"Content-Type": "application/json; charset=utf-8", "aeg-event-type": "Notification",
		"aeg-subscription-name": "sub1", "aeg-delivery-count": "2", "aeg-data-version": "2.0",
		"aeg-metadata-version": "1", "Authorization": "Bearer abc",
	} {
		if got := req.Header.Get(h); got != v {
			t.Errorf("header %s = %q, want %q", h, got, v)
		}
	}
}

func TestContentTypeBySchema(t *testing.T) {
	hook := testenv.NewWebhook(t)
	s := newSender(t, webhook.Options{}, destination.Endpoint{Type: destination.WebHook, URL: hook.URL})
	ce := events(t, eventschema.CloudEvents, `{"id":"1","source":"s","type":"t","specversion":"1.0"}`)
	s.Send(context.Background(), &destination.Delivery{Subscription: "s", Schema: eventschema.CloudEvents, Events: ce})
	req := hook.Requests()[0]
	if req.Header.Get("Content-Type") != "application/cloudevents-batch+json; charset=utf-8" || req.Header.Get("aeg-metadata-version") != "" {
		t.Fatalf("headers %v", req.Header)
	}
	if !strings.HasPrefix(string(req.Body), "[{") {
		t.Fatalf("CloudEvents body must still be an array: %s", req.Body)
	}
}

func TestSendClassifiesStatuses(t *testing.T) {
	tests := map[string]struct {
		status  int
		outcome destination.Outcome
	}{
		"201 delivered":  {201, destination.Delivered},
		"204 delivered":  {204, destination.Delivered},
		"400 dropped":    {400, destination.Drop},
		"401 dropped":    {401, destination.Drop},
		"403 dropped":    {403, destination.Drop},
		"413 dropped":    {413, destination.Drop},
		"404 retried":    {404, destination.Retry},
		"500 retried":    {500, destination.Retry},
		"302 not follow": {302, destination.Retry},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			hook := testenv.NewWebhook(t)
			hook.Script(tc.status)
			s := newSender(t, webhook.Options{}, destination.Endpoint{Type: destination.WebHook, URL: hook.URL})
			r := s.Send(context.Background(), &destination.Delivery{Subscription: "s", Events: events(t, eventschema.EventGrid, egBody)})
			if r.Outcome != tc.outcome || r.Status != tc.status || hook.Count() != 1 {
				t.Fatalf("result %+v after %d requests", r, hook.Count())
			}
		})
	}
}

func TestSendTimeoutAndRefused(t *testing.T) {
	hook := testenv.NewWebhook(t)
	hook.Hang()
	s := newSender(t, webhook.Options{Timeout: 50 * time.Millisecond}, destination.Endpoint{Type: destination.WebHook, URL: hook.URL})
	r := s.Send(context.Background(), &destination.Delivery{Subscription: "s", Events: events(t, eventschema.EventGrid, egBody)})
	if r.Outcome != destination.Retry || r.Reason != "TimedOut" {
		t.Fatalf("hanging subscriber: %+v", r)
	}
	hook.Unhang()
	url := hook.URL
	hook.Close()
	s2 := newSender(t, webhook.Options{}, destination.Endpoint{Type: destination.WebHook, URL: url})
	r = s2.Send(context.Background(), &destination.Delivery{Subscription: "s", Events: events(t, eventschema.EventGrid, egBody)})
	if r.Outcome != destination.Retry || r.Reason != "SocketError" {
		t.Fatalf("closed subscriber: %+v", r)
	}
}

func TestTLSVerification(t *testing.T) {
	ca := testenv.NewCA(t, "subscriber CA")
	cert := ca.ServerCert(t)
	tests := map[string]struct {
		opts webhook.Options
		ok   bool
	}{
		"unknown CA allowed (default)": {webhook.Options{AllowUnknownCA: true}, true},
		"unknown CA refused":           {webhook.Options{AllowUnknownCA: false}, false},
		"trusted through the bundle":   {webhook.Options{RootCAs: ca.Pool}, true},
		"skip validation":              {webhook.Options{SkipServerCertValidation: true}, true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			hook := testenv.NewTLSWebhook(t, &cert, tls.NoClientCert)
			s := newSender(t, tc.opts, destination.Endpoint{Type: destination.WebHook, URL: hook.URL})
			r := s.Send(context.Background(), &destination.Delivery{Subscription: "s", Events: events(t, eventschema.EventGrid, egBody)})
			if (r.Outcome == destination.Delivered) != tc.ok {
				t.Fatalf("result %+v", r)
			}
		})
	}
}

func TestUnknownCAStillChecksHostname(t *testing.T) {
	ca := testenv.NewCA(t, "subscriber CA")
	cert, _, _ := ca.Issue(t, testenv.LeafOptions{CommonName: "other", Hosts: []string{"other.example"}})
	hook := testenv.NewTLSWebhook(t, &cert, tls.NoClientCert)
	s := newSender(t, webhook.Options{AllowUnknownCA: true}, destination.Endpoint{Type: destination.WebHook, URL: hook.URL})
	r := s.Send(context.Background(), &destination.Delivery{Subscription: "s", Events: events(t, eventschema.EventGrid, egBody)})
	if r.Outcome == destination.Delivered {
		t.Fatal("a certificate for another host was accepted")
	}
	expired, _, _ := ca.Issue(t, testenv.LeafOptions{CommonName: "localhost", Hosts: []string{"127.0.0.1"},
		NotBefore: time.Now().Add(-48 * time.Hour), NotAfter: time.Now().Add(-24 * time.Hour)})
	hook2 := testenv.NewTLSWebhook(t, &expired, tls.NoClientCert)
	s2 := newSender(t, webhook.Options{AllowUnknownCA: true}, destination.Endpoint{Type: destination.WebHook, URL: hook2.URL})
	if r := s2.Send(context.Background(), &destination.Delivery{Subscription: "s", Events: events(t, eventschema.EventGrid, egBody)}); r.Outcome == destination.Delivered {
		t.Fatal("an expired certificate was accepted")
	}
}

func TestClientCertificatePresented(t *testing.T) {
	ca := testenv.NewCA(t, "edge CA")
	server := ca.ServerCert(t)
	client, _, _ := ca.Issue(t, testenv.LeafOptions{CommonName: "eventgridmodule", Client: true})
	hook := testenv.NewTLSWebhook(t, &server, tls.RequireAndVerifyClientCert)
	hook.Server.TLS.ClientCAs = ca.Pool()
	s := newSender(t, webhook.Options{RootCAs: ca.Pool, ClientCertificate: func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return &client, nil }},
		destination.Endpoint{Type: destination.WebHook, URL: hook.URL})
	r := s.Send(context.Background(), &destination.Delivery{Subscription: "s", Events: events(t, eventschema.EventGrid, egBody)})
	if r.Outcome != destination.Delivered || hook.Requests()[0].PeerCerts == 0 {
		t.Fatalf("mutual TLS failed: %+v", r)
	}
}

func TestValidate(t *testing.T) {
	many := make([]destination.Header, 11)
	for i := range many {
		many[i] = destination.Header{Name: "X-H" + string(rune('a'+i)), Value: "v"}
	}
	tests := map[string]struct {
		opts    webhook.Options
		ep      destination.Endpoint
		wantErr string
	}{
		"https ok":                {webhook.Options{HTTPSOnly: true}, destination.Endpoint{URL: "https://subscriber:4430"}, ""},
		"http refused":            {webhook.Options{HTTPSOnly: true}, destination.Endpoint{URL: "http://subscriber:80/api/subscriber"}, "httpsOnly"},
		"http allowed":            {webhook.Options{}, destination.Endpoint{URL: "http://subscriber:80/api/subscriber"}, ""},
		"empty":                   {webhook.Options{}, destination.Endpoint{URL: ""}, "must be specified"},
		"relative":                {webhook.Options{}, destination.Endpoint{URL: "/api/x"}, "absolute"},
		"ftp":                     {webhook.Options{}, destination.Endpoint{URL: "ftp://x/y"}, "scheme"},
		"aeg header":              {webhook.Options{}, destination.Endpoint{URL: "http://x", Headers: []destination.Header{{Name: "aeg-x", Value: "v"}}}, "aeg-"},
		"reserved header":         {webhook.Options{}, destination.Endpoint{URL: "http://x", Headers: []destination.Header{{Name: "content-type", Value: "v"}}}, "reserved"},
		"too many headers":        {webhook.Options{}, destination.Endpoint{URL: "http://x", Headers: many}, "At most 10"},
		"value too long":          {webhook.Options{}, destination.Endpoint{URL: "http://x", Headers: []destination.Header{{Name: "X-A", Value: strings.Repeat("v", 4097)}}}, "4096"},
		"value of 4096 ok":        {webhook.Options{}, destination.Endpoint{URL: "http://x", Headers: []destination.Header{{Name: "X-A", Value: strings.Repeat("v", 4096)}}}, ""},
		"bad header name":         {webhook.Options{}, destination.Endpoint{URL: "http://x", Headers: []destination.Header{{Name: "X A", Value: "v"}}}, "not a valid"},
		"duplicate header":        {webhook.Options{}, destination.Endpoint{URL: "http://x", Headers: []destination.Header{{Name: "X-A", Value: "1"}, {Name: "x-a", Value: "2"}}}, "twice"},
		"newline in header value": {webhook.Options{}, destination.Endpoint{URL: "http://x", Headers: []destination.Header{{Name: "X-A", Value: "a\nb"}}}, "control"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			err := webhook.NewFactory(tc.opts).Validate(&tc.ep)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, destination.ErrInvalidEndpoint) || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v, want %q", err, tc.wantErr)
			}
		})
	}
}

var _ = http.StatusOK
