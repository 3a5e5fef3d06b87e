package edgehub

import (
	"strconv"
	"time"
)

// twin keeps the module twin in step with the broker: desired topics and
// eventSubscriptions are applied, and reported properties say what the
// broker holds and what failed. It follows IoT Hub's recommended flow: GET the
// whole twin after every connect, apply patches in $version order, GET again
// when a version is skipped. It runs on the control loop only.
type twin struct {
	c       *Client
	s       *session // nil while disconnected
	rid     uint64
	pending map[string]twinRequest // by $rid
	getDue  bool                   // a GET failed or was missed: ask again

	holdReports time.Time // after a refused report: no new one before this

	have     bool           // a whole desired document was applied
	version  int64          // the $version applied last
	seen     int64          // the highest desired $version announced
	desired  map[string]any // desired properties, without $-properties
	reported map[string]any // reported properties as edgeHub holds them; nil until known
	errs     twinErrors
}

// twinRequest is a request waiting for its answer.
type twinRequest struct {
	get  bool
	sent time.Time
	doc  map[string]any // reported-properties patches: the document once applied
}

func newTwin(c *Client) *twin {
	return &twin{c: c, pending: map[string]twinRequest{}, errs: newTwinErrors()}
}

// connected starts over on a new connection: edgeHub does not queue desired
// patches for a disconnected client, so the whole twin is fetched.
func (t *twin) connected(s *session) {
	t.s = s
	clear(t.pending)
	t.get()
}

func (t *twin) disconnected() {
	t.s = nil
	clear(t.pending)
}

// resync fetches the whole twin again (a message was lost or skipped).
func (t *twin) resync() {
	t.getDue = true
	t.get()
}

func (t *twin) get() {
	if t.s == nil || t.waiting(true) {
		return
	}
	t.getDue = false
	t.send(twinGetTopic, nil, twinRequest{get: true})
}

// waiting reports whether a GET (get) or reported patch (!get) is pending.
func (t *twin) waiting(get bool) bool {
	for _, r := range t.pending {
		if r.get == get {
			return true
		}
	}
	return false
}

// send publishes a request with the next $rid. QoS 0, as the SDKs send twin
// requests: a lost request times out and is asked again.
func (t *twin) send(topicFor func(rid string) string, payload []byte, req twinRequest) {
	t.rid++
	rid := strconv.FormatUint(t.rid, 10)
	req.sent = t.c.opts.Clock.Now()
	t.pending[rid] = req
	t.s.cl.Publish(topicFor(rid), 0, false, payload)
}

// receive handles a twin response or desired-properties patch.
func (t *twin) receive(topic string, payload []byte) {
	if status, rid, _, ok := parseResponse(topic); ok {
		req, found := t.pending[rid]
		if !found {
			return // the answer to a request that timed out
		}
		delete(t.pending, rid)
		if req.get {
			t.onGet(status, payload)
		} else {
			t.onReported(status, req.doc)
		}
		return
	}
	if v, ok := parseDesiredVersion(topic); ok {
		t.onDesired(v, payload)
	}
}

// tick expires unanswered requests, retries a due GET and reports changes
// made since (through the REST API, for instance).
func (t *twin) tick() {
	now := t.c.opts.Clock.Now()
	for rid, r := range t.pending {
		if now.Sub(r.sent) >= requestTimeout {
			delete(t.pending, rid)
			t.getDue = t.getDue || r.get
			t.c.log.Warn().Bool("get", r.get).Msg("edgeHub did not answer a module twin request in time; asking again")
		}
	}
	if t.getDue {
		t.get()
	}
	t.report()
}
