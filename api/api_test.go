package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/api"
	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/destination/webhook"
	"github.com/edgegrid/edgegrid/internal/testenv"
	"github.com/edgegrid/edgegrid/resource"
)

const q = "?api-version=2019-01-01-preview"

type env struct {
	t   *testing.T
	srv *httptest.Server
	b   *broker.Broker
	api *api.Server
}

func newEnv(t *testing.T, cfg broker.Config, mod ...func(*api.Options)) *env {
	t.Helper()
	f := webhook.NewFactory(webhook.Options{HTTPSOnly: false, AllowUnknownCA: true})
	b, err := broker.New(cfg, broker.WithFactory(destination.WebHook, f))
	if err != nil {
		t.Fatal(err)
	}
	o := api.Options{Broker: b, Identity: resource.Identity{Hub: "hub", Device: "dev", Module: "eventgridmodule"}}
	for _, m := range mod {
		m(&o)
	}
	a, err := api.New(o)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a)
	t.Cleanup(func() {
		srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		b.Shutdown(ctx)
	})
	return &env{t: t, srv: srv, b: b, api: a}
}

type response struct {
	status int
	header http.Header
	body   string
}

func (e *env) do(method, path, body string, headers ...string) response {
	e.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{status: resp.StatusCode, header: resp.Header, body: string(b)}
}

// errorOf decodes the documented error body.
func errorOf(t *testing.T, r response) (code, detail, msg string) {
	t.Helper()
	var eb struct {
		Error struct {
			Code    string `json:"code"`
			Details struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.body), &eb); err != nil || eb.Error.Code == "" {
		t.Fatalf("not the error shape: %d %q", r.status, r.body)
	}
	return eb.Error.Code, eb.Error.Details.Code, eb.Error.Details.Message
}

func (e *env) mustTopic(name, schema string) {
	e.t.Helper()
	r := e.do("PUT", "/topics/"+name+q, `{"name":"`+name+`","properties":{"inputSchema":"`+schema+`"}}`)
	if r.status != 200 {
		e.t.Fatalf("create topic: %d %s", r.status, r.body)
	}
}

func (e *env) mustSub(topic, name, url string) {
	e.t.Helper()
	r := e.do("PUT", "/topics/"+topic+"/eventSubscriptions/"+name+q,
		`{"properties":{"destination":{"endpointType":"WebHook","properties":{"endpointUrl":"`+url+`"}}}}`)
	if r.status != 200 {
		e.t.Fatalf("create subscription: %d %s", r.status, r.body)
	}
}

var _ = testenv.Eventually
