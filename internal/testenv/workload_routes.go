package testenv

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

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
	life, now := w.lifetime, w.now()
	w.issued++
	w.mu.Unlock()
	o := LeafOptions{CommonName: w.ModuleID, Client: identity, NotBefore: now.Add(-time.Hour), NotAfter: now.Add(life)}
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
