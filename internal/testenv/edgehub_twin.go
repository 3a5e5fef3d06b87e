package testenv

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// twinStore is the module twin as IoT Hub keeps it.
type twinStore struct {
	desired, reported map[string]any
	dv, rv            int64 // $version of each section
	drop              int   // requests left to ignore
	refuse            int   // reported patches left to answer 429
	gets, patches     int   // requests answered
}

func newTwinStore() twinStore {
	return twinStore{desired: map[string]any{}, reported: map[string]any{}, dv: 1, rv: 1}
}

// SetDesired replaces the desired properties, as a new deployment does before
// the module connects; the module learns of it from its next GET.
func (h *EdgeHub) SetDesired(tb testing.TB, doc string) {
	tb.Helper()
	m := mustObject(tb, doc)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.twin.desired = m
	h.twin.dv++
}

// ChangeDesired merges patch into the desired properties without telling the
// module (a patch it missed).
func (h *EdgeHub) ChangeDesired(tb testing.TB, patch string) {
	tb.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	h.twin.desired = jsonMerge(h.twin.desired, mustObject(tb, patch))
	h.twin.dv++
}

// PatchDesired merges patch into the desired properties and sends it to the
// module on $iothub/twin/PATCH/properties/desired/?$version={v}.
func (h *EdgeHub) PatchDesired(tb testing.TB, patch string) {
	tb.Helper()
	p := mustObject(tb, patch)
	h.mu.Lock()
	h.twin.desired = jsonMerge(h.twin.desired, mustObject(tb, patch))
	h.twin.dv++
	v := h.twin.dv
	srv := h.srv
	h.mu.Unlock()
	p["$version"] = v
	body, _ := json.Marshal(p)
	if srv == nil {
		tb.Fatal("edgeHub double is stopped")
	}
	if err := srv.Publish("$iothub/twin/PATCH/properties/desired/?$version="+strconv.FormatInt(v, 10), body, false, 0); err != nil {
		tb.Fatal(err)
	}
}

// Reported returns a copy of the reported properties.
func (h *EdgeHub) Reported() map[string]any {
	h.mu.Lock()
	raw, _ := json.Marshal(h.twin.reported)
	h.mu.Unlock()
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return out
}

// TwinGets counts GET requests answered.
func (h *EdgeHub) TwinGets() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.twin.gets
}

// DropTwinRequests makes the double ignore the next n twin requests.
func (h *EdgeHub) DropTwinRequests(n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.twin.drop = n
}

// RefuseReports makes the double answer the next n reported-properties
// patches with 429 (throttled), as IoT Hub does under load.
func (h *EdgeHub) RefuseReports(n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.twin.refuse = n
}

// TwinPatches counts reported-properties patches answered (refused or not).
func (h *EdgeHub) TwinPatches() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.twin.patches
}

// twinRequest answers $iothub/twin/GET/?$rid= and
// $iothub/twin/PATCH/properties/reported/?$rid= as IoT Hub does.
func (h *EdgeHub) twinRequest(topic string, payload []byte) {
	path, query, _ := strings.Cut(topic, "?")
	q, _ := url.ParseQuery(query)
	rid := q.Get("$rid")
	h.mu.Lock()
	if h.twin.drop > 0 {
		h.twin.drop--
		h.mu.Unlock()
		return
	}
	res, body := "", []byte(nil)
	switch path {
	case "$iothub/twin/GET/":
		h.twin.gets++
		res, body = "200/?$rid="+rid, h.twinDocument()
	case "$iothub/twin/PATCH/properties/reported/":
		h.twin.patches++
		var patch map[string]any
		if json.Unmarshal(payload, &patch) != nil || patch == nil {
			res = "400/?$rid=" + rid
			break
		}
		if h.twin.refuse > 0 {
			h.twin.refuse--
			res = "429/?$rid=" + rid
			break
		}
		h.twin.reported = jsonMerge(h.twin.reported, patch)
		h.twin.rv++
		res = "204/?$rid=" + rid + "&$version=" + strconv.FormatInt(h.twin.rv, 10)
	}
	srv := h.srv
	h.mu.Unlock()
	if res != "" && srv != nil {
		_ = srv.Publish("$iothub/twin/res/"+res, body, false, 0)
	}
}

// twinDocument is the GET answer; h.mu is held.
func (h *EdgeHub) twinDocument() []byte {
	d := jsonMerge(map[string]any{}, h.twin.desired)
	d["$version"] = h.twin.dv
	r := jsonMerge(map[string]any{}, h.twin.reported)
	r["$version"] = h.twin.rv
	body, _ := json.Marshal(map[string]any{"desired": d, "reported": r})
	return body
}

// jsonMerge applies an RFC 7396 merge patch to doc (copying patch's objects).
func jsonMerge(doc, patch map[string]any) map[string]any {
	if doc == nil {
		doc = map[string]any{}
	}
	for k, v := range patch {
		pm, isObj := v.(map[string]any)
		switch {
		case v == nil:
			delete(doc, k)
		case isObj:
			dm, _ := doc[k].(map[string]any)
			doc[k] = jsonMerge(dm, pm)
		default:
			doc[k] = v
		}
	}
	return doc
}

func mustObject(tb testing.TB, doc string) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(doc), &m); err != nil || m == nil {
		tb.Fatalf("not a JSON object: %v: %s", err, doc)
	}
	return m
}
