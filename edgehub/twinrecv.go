package edgehub

import (
	"encoding/json"
	"strconv"
	"strings"
)

// onGet applies a whole twin: {"desired": {…, "$version": n}, "reported": {…}}.
func (t *twin) onGet(status int, body []byte) {
	if status != 200 {
		t.getDue = true
		t.c.log.Warn().Int("status", status).Msg("edgeHub refused to send the module twin; asking again shortly")
		return
	}
	var doc struct {
		Desired  map[string]any `json:"desired"`
		Reported map[string]any `json:"reported"`
	}
	if err := decodeJSON(body, &doc); err != nil {
		t.errs.bootup(err)
		t.c.log.Error().Err(err).Msg("the module twin is not valid JSON")
		return
	}
	t.reported = withoutMeta(doc.Reported)
	version := versionOf(doc.Desired)
	t.applyDocument(withoutMeta(doc.Desired), version)
	if t.seen > version {
		t.resync() // a patch newer than this document arrived meanwhile
	}
}

// onDesired applies a desired-properties patch in version order.
func (t *twin) onDesired(version int64, body []byte) {
	var patch map[string]any
	if err := decodeJSON(body, &patch); err != nil {
		t.errs.bootup(err)
		t.c.log.Error().Err(err).Msg("a desired-properties patch is not valid JSON; fetching the whole twin")
		t.resync()
		return
	}
	if v := versionOf(patch); v != 0 {
		version = v
	}
	t.seen = max(t.seen, version)
	switch {
	case !t.have:
		t.get() // the whole document is on its way or due
	case version != 0 && version <= t.version:
		// already applied
	case version > t.version+1:
		t.c.log.Info().Int64("have", t.version).Int64("got", version).Msg("desired properties skipped a version; fetching the whole twin")
		t.resync()
	default:
		t.applyPatch(withoutMeta(patch), version)
	}
}

func (t *twin) onReported(status int, doc map[string]any) {
	if status/100 == 2 {
		t.reported = doc
		t.report() // whatever changed meanwhile
		return
	}
	now := t.c.opts.Clock.Now()
	t.holdReports = now.Add(reportHold)
	if n, ok := t.c.causes.note("reported properties refused: "+strconv.Itoa(status), now); ok {
		t.c.log.Warn().Int("status", status).Int64("count", n).Dur("retryIn", reportHold).
			Msg("edgeHub refused the reported properties (a document over 32 KB is refused for good); trying again")
	}
}

// versionOf reads a twin section's $version.
func versionOf(m map[string]any) int64 {
	switch v := m["$version"].(type) {
	case json.Number:
		n, _ := v.Int64()
		return n
	case float64:
		return int64(v)
	}
	return 0
}

// withoutMeta copies m without the twin's $-properties ($version, $metadata).
func withoutMeta(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if !strings.HasPrefix(k, "$") {
			out[k] = v
		}
	}
	return out
}
