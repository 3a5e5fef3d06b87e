package edgehub

import (
	"encoding/json"
	"time"

	"github.com/edgegrid/edgegrid/resource"
)

// reportHold is the pause after edgeHub refused reported properties: a
// throttled or oversized document is not sent again at every tick.
const reportHold = time.Minute

// bootupMessage is the reported boot-up error when desired properties cannot
// be read, in the original's words.
const bootupMessage = "desired properties JSON parsing failed"

// twinErrors are the reported "errors" property.
type twinErrors struct {
	bootMessage, bootException string
	topics, subs               map[string]string // by name: the twin error form
}

func newTwinErrors() twinErrors {
	return twinErrors{topics: map[string]string{}, subs: map[string]string{}}
}

func (e *twinErrors) bootup(err error) {
	e.bootMessage, e.bootException = "", ""
	if err != nil {
		e.bootMessage, e.bootException = bootupMessage, err.Error()
	}
}

// set records err under name (or clears it when nil) in the documented form
// HttpStatusCode='…' ErrorCode='…' Message='…', as the REST API would answer.
func (e *twinErrors) set(m map[string]string, name string, err error) {
	if err == nil {
		delete(m, name)
		return
	}
	p, ok := resource.Explain(err)
	if !ok {
		p = resource.Problem{Status: 500, Code: "InternalError", Message: resource.Sentence(err)}
	}
	m[name] = p.TwinError()
}

func (e *twinErrors) doc() map[string]any {
	return map[string]any{"bootupMessage": e.bootMessage, "bootupException": e.bootException,
		"topics": e.topics, "eventSubscriptions": e.subs}
}

// reportedDoc is what the reported properties should say: every topic and
// subscription in the broker (however it was created; secrets never
// included), in the desired properties' shape, and the errors.
func (t *twin) reportedDoc() map[string]any {
	topics := map[string]any{}
	subs := map[string]any{}
	for _, tc := range t.c.b.Topics() {
		topics[tc.Name] = map[string]string{"inputSchema": tc.Schema.String()}
		list, err := t.c.b.Subscriptions(tc.Name)
		if err != nil {
			continue // deleted meanwhile
		}
		for _, sc := range list {
			subs[sc.Name] = resource.RenderSubscription(sc, resource.Identity{}, resource.ForAPI).Properties
		}
	}
	doc, _ := twinValue(map[string]any{"topics": topics, "eventSubscriptions": subs, "errors": t.errs.doc()}).(map[string]any)
	if m, ok := doc["eventSubscriptions"].(map[string]any); ok {
		for _, v := range m {
			if p, ok := v.(map[string]any); ok {
				delete(p, "topicName") // the twin's shape names the topic once, as "topic"
			}
		}
	}
	return doc
}

// report patches the reported properties with what changed since edgeHub
// last accepted them. One patch is in flight at a time.
func (t *twin) report() {
	if t.s == nil || t.reported == nil || t.waiting(false) || t.c.opts.Clock.Now().Before(t.holdReports) {
		return
	}
	doc := t.reportedDoc()
	patch := mergeDiff(t.reported, doc)
	if len(patch) == 0 {
		return
	}
	raw, err := json.Marshal(patch)
	if err != nil {
		return
	}
	t.send(twinReportTopic, raw, twinRequest{doc: doc})
}
