package auth_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/api"
	"github.com/edgegrid/edgegrid/auth"
	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/certs"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

const q = "?api-version=2019-01-01-preview"

// Keys as the cloud and the docs write them: base64 of 32 random bytes.
const (
	key1 = "TGlrZSB0aGUgY2xvdWQncyBrZXlzLCAzMiBieXRlcy4="
	key2 = "U2Vjb25kIGtleSwgYWxzbyAzMiBieXRlcyBsb25nLi4="
	// otherKey is valid base64 but not configured.
	otherKey = "Tm90IGEga2V5IHRoaXMgbW9kdWxlIGtub3dzISEhISE="
)

// server is the real API behind the module's TLS policy, with a plain HTTP
// listener beside it.
type server struct {
	https, http string
	ca          *testenv.CA // issued the server certificate
}

func newServer(t *testing.T, o auth.Options) *server {
	t.Helper()
	b, err := broker.New(broker.Config{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := auth.New(o)
	if err != nil {
		t.Fatal(err)
	}
	s, err := api.New(api.Options{Broker: b, Auth: a})
	if err != nil {
		t.Fatal(err)
	}
	s.SetReady(true)
	ca := testenv.NewCA(t, "Server CA")
	cert, err := certs.NewStatic(ca.ServerCert(t))
	if err != nil {
		t.Fatal(err)
	}
	srv := &server{ca: ca}
	srv.https = "https://" + listen(t, s.NewHTTPServer(certs.ServerConfig(cert.GetCertificate, o.ClientCert)))
	srv.http = "http://" + listen(t, s.NewHTTPServer(nil))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		b.Shutdown(ctx)
	})
	if _, _, err := b.PutTopic(broker.TopicConfig{Name: "t", Schema: eventschema.CloudEvents}); err != nil {
		t.Fatal(err)
	}
	return srv
}

func listen(t *testing.T, hs *http.Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if hs.TLSConfig != nil {
		ln = tls.NewListener(ln, hs.TLSConfig)
	}
	go func() { _ = hs.Serve(ln) }()
	t.Cleanup(func() { _ = hs.Close() })
	return ln.Addr().String()
}

// client trusts the server's CA and presents cert when not nil.
func (s *server) client(cert *tls.Certificate) *http.Client {
	cfg := testenv.ClientTLS(s.ca)
	if cert != nil {
		cfg.Certificates = []tls.Certificate{*cert}
	}
	return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: cfg}}
}

// result is an answer: status and, for errors, the documented body.
type result struct {
	status            int
	code, detail, msg string
	body              string
}

func do(t *testing.T, c *http.Client, method, url string, headers ...string) result {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	r := result{status: resp.StatusCode, body: string(b)}
	var eb struct {
		Error struct {
			Code    string                         `json:"code"`
			Details struct{ Code, Message string } `json:"details"`
		} `json:"error"`
	}
	if resp.StatusCode >= 400 && json.Unmarshal(b, &eb) == nil {
		r.code, r.detail, r.msg = eb.Error.Code, eb.Error.Details.Code, eb.Error.Details.Message
	}
	return r
}

// want401 checks the original's 401 body and that the message explains
// msgRe without echoing any secret.
func want401(t *testing.T, r result, msgRe string, secrets ...string) {
	t.Helper()
	if r.status != 401 || r.code != "Unauthorized" || r.detail != "Unauthorized" {
		t.Fatalf("got %d %s, want 401 with the Unauthorized error body", r.status, r.body)
	}
	if !regexp.MustCompile(msgRe).MatchString(r.msg) {
		t.Fatalf("message %q does not match %q", r.msg, msgRe)
	}
	for _, s := range secrets {
		if s != "" && strings.Contains(r.body, s) {
			t.Fatalf("the body echoes a secret: %s", r.body)
		}
	}
}

// sdkToken builds a SAS token the way the Azure SDK for Go's tests and the
// docs' C# sample do: r and e query-escaped, HMAC-SHA256 with the
// base64-decoded key over "r=…&e=…", signature base64 then query-escaped.
func sdkToken(resource, key, expiry string) string {
	text := "r=" + url.QueryEscape(resource) + "&e=" + url.QueryEscape(expiry)
	k, _ := base64.StdEncoding.DecodeString(key)
	m := hmac.New(sha256.New, k)
	m.Write([]byte(text))
	return text + "&s=" + url.QueryEscape(base64.StdEncoding.EncodeToString(m.Sum(nil)))
}

// dotnetToken builds the token as .NET's HttpUtility.UrlEncode does:
// lower-case escapes, so the signed text differs from sdkToken's.
func dotnetToken(resource, key, expiry string) string {
	lower := func(s string) string {
		return regexp.MustCompile(`%[0-9A-F]{2}`).ReplaceAllStringFunc(url.QueryEscape(s), strings.ToLower)
	}
	text := "r=" + lower(resource) + "&e=" + lower(expiry)
	k, _ := base64.StdEncoding.DecodeString(key)
	m := hmac.New(sha256.New, k)
	m.Write([]byte(text))
	return text + "&s=" + lower(base64.StdEncoding.EncodeToString(m.Sum(nil)))
}
