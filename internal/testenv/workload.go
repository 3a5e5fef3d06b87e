package testenv

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// workloadVersions are the api-versions aziot-edged knows.
var workloadVersions = map[string]bool{"2018-06-28": true, "2019-01-30": true, "2019-10-22": true,
	"2019-11-05": true, "2020-07-07": true, "2021-12-07": true, "2022-08-03": true}

// Workload is a double of the IoT Edge workload API on a Unix socket. It serves
// the documented routes with the runtime's error model and issues real X.509
// certificates from its own CA; sign computes HMAC-SHA256 with Key.
type Workload struct {
	CA           *CA
	Socket       string
	URI          string // unix://<Socket>
	ModuleID     string
	GenerationID string
	Hub, Device  string
	Key          []byte // the module's SAS key

	mu       sync.Mutex
	lifetime time.Duration
	fail     []int // statuses to answer the next requests with; 0 closes the connection
	requests []WorkloadRequest
	issued   int
	srv      *http.Server
}

// WorkloadRequest records one call.
type WorkloadRequest struct {
	Method, Path, APIVersion string
	Body                     map[string]any
}

// NewWorkload starts the double for module "eventgridmodule" on device "gw1" of
// hub "contoso".
func NewWorkload(tb testing.TB) *Workload {
	tb.Helper()
	dir, err := os.MkdirTemp("", "wl") // short: Unix socket paths are limited to 108 bytes
	if err != nil {
		tb.Fatal(err)
	}
	w := &Workload{CA: NewCA(tb, "Test Edge CA"), Socket: filepath.Join(dir, "workload.sock"),
		ModuleID: "eventgridmodule", GenerationID: "637911101449272999", Hub: "contoso", Device: "gw1",
		Key: []byte("edgegrid-test-module-key-0123456"), lifetime: 24 * time.Hour}
	w.URI = "unix://" + w.Socket
	ln, err := net.Listen("unix", w.Socket)
	if err != nil {
		tb.Fatal(err)
	}
	w.srv = &http.Server{Handler: w, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = w.srv.Serve(ln) }()
	tb.Cleanup(func() { _ = w.srv.Close(); _ = os.RemoveAll(dir) })
	return w
}

// Env returns the IOTEDGE_* variables a module would get for this double.
func (w *Workload) Env() []string {
	return []string{"IOTEDGE_WORKLOADURI=" + w.URI, "IOTEDGE_MODULEID=" + w.ModuleID, "IOTEDGE_DEVICEID=" + w.Device,
		"IOTEDGE_IOTHUBHOSTNAME=" + w.Hub + ".azure-devices.net", "IOTEDGE_GATEWAYHOSTNAME=localhost",
		"IOTEDGE_MODULEGENERATIONID=" + w.GenerationID, "IOTEDGE_APIVERSION=2022-08-03", "IOTEDGE_AUTHSCHEME=sasToken"}
}

// SetCertLifetime sets the validity of certificates issued from now on.
func (w *Workload) SetCertLifetime(d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lifetime = d
}

// FailNext makes the next requests answer these statuses (0: drop the connection
// without an answer, as the runtime does when throttling).
func (w *Workload) FailNext(statuses ...int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.fail = append(w.fail, statuses...)
}

// Requests returns the calls received so far.
func (w *Workload) Requests() []WorkloadRequest {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]WorkloadRequest(nil), w.requests...)
}

// Issued counts certificates issued.
func (w *Workload) Issued() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.issued
}

// Sign computes what the runtime's sign route returns for data.
func (w *Workload) Sign(data []byte) []byte {
	m := hmac.New(sha256.New, w.Key)
	m.Write(data)
	return m.Sum(nil)
}

func (w *Workload) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	rec := WorkloadRequest{Method: r.Method, Path: r.URL.Path, APIVersion: r.URL.Query().Get("api-version")}
	if r.Method == http.MethodPost {
		_ = json.NewDecoder(r.Body).Decode(&rec.Body)
	}
	w.mu.Lock()
	w.requests = append(w.requests, rec)
	var fail = -1
	if len(w.fail) > 0 {
		fail, w.fail = w.fail[0], w.fail[1:]
	}
	w.mu.Unlock()
	switch {
	case fail == 0:
		if hj, ok := rw.(http.Hijacker); ok {
			if c, _, err := hj.Hijack(); err == nil {
				_ = c.Close()
			}
		}
		return
	case fail > 0:
		wlError(rw, fail, "injected failure")
		return
	}
	w.route(rw, r, rec)
}

func (w *Workload) route(rw http.ResponseWriter, r *http.Request, rec WorkloadRequest) {
	if rec.APIVersion == "" {
		wlError(rw, 400, "api-version not specified")
		return
	}
	if !workloadVersions[rec.APIVersion] {
		wlError(rw, 400, fmt.Sprintf("invalid api-version %q", rec.APIVersion))
		return
	}
	segs := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	for i := range segs {
		segs[i], _ = url.PathUnescape(segs[i])
	}
	switch {
	case len(segs) == 1 && segs[0] == "trust-bundle":
		w.method(rw, r, "GET", func() { wlJSON(rw, 200, map[string]string{"certificate": string(w.CA.CertPEM)}) })
	case len(segs) == 6 && segs[0] == "modules" && segs[2] == "genid" && segs[4] == "certificate" && segs[5] == "server":
		w.module(rw, r, segs[1], segs[3], func() { w.issue(rw, rec, false) })
	case len(segs) == 4 && segs[0] == "modules" && segs[2] == "certificate" && segs[3] == "identity":
		w.module(rw, r, segs[1], w.GenerationID, func() { w.issue(rw, rec, true) })
	case len(segs) == 5 && segs[0] == "modules" && segs[2] == "genid" && segs[4] == "sign":
		w.module(rw, r, segs[1], segs[3], func() { w.sign(rw, rec) })
	default:
		wlError(rw, 404, "not found")
	}
}

func (w *Workload) method(rw http.ResponseWriter, r *http.Request, want string, f func()) {
	if r.Method != want {
		wlError(rw, 400, "method not allowed")
		return
	}
	f()
}

// module checks what the runtime checks for module routes: POST, a JSON (or
// absent) content type, the caller's module name and generation.
func (w *Workload) module(rw http.ResponseWriter, r *http.Request, name, genid string, f func()) {
	w.method(rw, r, "POST", func() {
		if ct := r.Header.Get("Content-Type"); ct != "" {
			if mt, _, _ := mime.ParseMediaType(ct); mt != "application/json" {
				wlError(rw, 400, "missing request body")
				return
			}
		}
		if strings.TrimPrefix(name, "$") != w.ModuleID {
			wlError(rw, 403, fmt.Sprintf("module %s is not authorized", name))
			return
		}
		if genid != w.GenerationID {
			wlError(rw, 400, "invalid generation id")
			return
		}
		f()
	})
}

func (w *Workload) issue(rw http.ResponseWriter, rec WorkloadRequest, identity bool) {
	w.mu.Lock()
	life := w.lifetime
	w.issued++
	w.mu.Unlock()
	o := LeafOptions{CommonName: w.ModuleID, Client: identity, NotAfter: time.Now().Add(life)}
	if !identity {
		cn, _ := rec.Body["commonName"].(string)
		if cn == "" {
			wlError(rw, 422, "commonName is required")
			return
		}
		o.CommonName = cn
		o.Hosts = []string{cn, w.ModuleID}
	}
	_, certPEM, keyPEM := w.CA.Issue(testingNop{}, o)
	wlJSON(rw, 201, map[string]any{
		"privateKey":  map[string]string{"type": "key", "bytes": string(keyPEM)},
		"certificate": string(certPEM),
		"expiration":  o.NotAfter.UTC().Format(time.RFC3339),
	})
}

func (w *Workload) sign(rw http.ResponseWriter, rec WorkloadRequest) {
	data, _ := rec.Body["data"].(string)
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil || data == "" {
		wlError(rw, 400, "invalid data: not base64")
		return
	}
	wlJSON(rw, 200, map[string]string{"digest": base64.StdEncoding.EncodeToString(w.Sign(raw))})
}

func wlError(rw http.ResponseWriter, status int, msg string) {
	wlJSON(rw, status, map[string]string{"message": msg})
}

func wlJSON(rw http.ResponseWriter, status int, v any) {
	rw.Header().Set("Content-Type", "application/json")
	rw.WriteHeader(status)
	_ = json.NewEncoder(rw).Encode(v)
}

// testingNop lets the double issue certificates outside a test's goroutine;
// issuing cannot fail with valid inputs.
type testingNop struct{ testing.TB }

func (testingNop) Helper()           {}
func (testingNop) Fatal(args ...any) { panic(fmt.Sprint(args...)) }
