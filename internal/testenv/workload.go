package testenv

import (
	"crypto/hmac"
	"crypto/sha256"
	"net"
	"net/http"
	"os"
	"path/filepath"
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
	now      func() time.Time
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
		Key: []byte("edgegrid-test-module-key-0123456"), lifetime: 24 * time.Hour, now: time.Now}
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

// SetNow sets the clock that dates issued certificates (valid from an hour
// before now for the lifetime), so tests with a manual clock get
// certificates that expire in that clock's time.
func (w *Workload) SetNow(now func() time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.now = now
}

// FailNext makes the next requests answer these statuses (0: drop the connection
// without an answer, as the runtime does when throttling; negative: answer
// normally, to let a request through before a failing one).
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
