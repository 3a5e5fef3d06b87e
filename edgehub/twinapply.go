package edgehub

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/resource"
)

// Desired properties the module reads (edge-spec §5.3).
const (
	desiredTopics        = "topics"
	desiredSubscriptions = "eventSubscriptions"
)

// applyDocument applies a whole desired document. Topics the previous
// document named and this one does not are deleted: their null patch was
// missed while disconnected.
func (t *twin) applyDocument(desired map[string]any, version int64) {
	prevTopics, _ := section(t.desired, desiredTopics)
	t.desired, t.version, t.have = desired, version, true
	t.errs = newTwinErrors()
	topics, subs := t.sections()
	for _, name := range sortedKeys(prevTopics) {
		if _, ok := topics[name]; !ok {
			t.deleteTopic(name)
		}
	}
	for _, name := range sortedKeys(topics) {
		t.applyTopic(name, topics[name])
	}
	for _, name := range sortedKeys(subs) {
		t.applySubscription(name, subs[name])
	}
	t.report()
}

// applyPatch merges a desired patch and applies the entries it names. A topic
// set to null is deleted; a subscription set to null is not (the original did
// not support it either) and a warning says how to delete it.
func (t *twin) applyPatch(patch map[string]any, version int64) {
	prevTopics, _ := section(t.desired, desiredTopics)
	t.desired, t.version = mergePatch(t.desired, patch), version
	topics, subs := t.sections()
	if pv, ok := patch[desiredTopics]; ok {
		named, _ := pv.(map[string]any)
		if pv == nil {
			named = prevTopics
		}
		for _, name := range sortedKeys(named) {
			if v, ok := topics[name]; ok {
				t.applyTopic(name, v)
			} else {
				t.deleteTopic(name)
			}
		}
	}
	if pv, ok := patch[desiredSubscriptions].(map[string]any); ok {
		for _, name := range sortedKeys(pv) {
			if v, ok := subs[name]; ok {
				t.applySubscription(name, v)
			} else {
				t.c.log.Warn().Str("subscription", name).Msg("deleting event subscriptions through the module twin is not supported; delete it through the REST API")
			}
		}
	}
	t.report()
}

// sections returns the desired topics and eventSubscriptions maps, recording
// a boot-up error when either is not an object.
func (t *twin) sections() (topics, subs map[string]any) {
	topics, err1 := section(t.desired, desiredTopics)
	subs, err2 := section(t.desired, desiredSubscriptions)
	t.errs.bootup(errors.Join(err1, err2))
	return topics, subs
}

func section(doc map[string]any, key string) (map[string]any, error) {
	v, ok := doc[key]
	if !ok || v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("desired property '%s' must be an object mapping names to properties", key)
	}
	return m, nil
}

func (t *twin) applyTopic(name string, v any) {
	raw, _ := json.Marshal(v) // v came from JSON
	cfg, err := resource.DecodeTopicPropertiesJSON(name, raw)
	if err == nil {
		_, _, err = t.c.b.PutTopic(cfg)
	}
	t.errs.set(t.errs.topics, name, err)
	t.logFailure("topic", name, err)
}

func (t *twin) deleteTopic(name string) {
	delete(t.errs.topics, name)
	if err := t.c.b.DeleteTopic(name); err != nil && !errors.Is(err, broker.ErrTopicNotFound) {
		t.c.log.Error().Err(err).Str("topic", name).Msg("module twin: deleting a topic failed")
	}
}

func (t *twin) applySubscription(name string, v any) {
	raw, _ := json.Marshal(v) // v came from JSON
	err := t.putSubscription(name, raw)
	t.errs.set(t.errs.subs, name, err)
	t.logFailure("eventSubscription", name, err)
}

// putSubscription creates or updates a subscription on the topic its
// properties name, with the destination's validation handshake when it asks
// for one (as for REST calls); an unchanged one is left alone (its sender
// keeps running).
func (t *twin) putSubscription(name string, raw json.RawMessage) error {
	topicName := resource.SubscriptionPropertiesTopic(raw)
	if topicName == "" {
		return &resource.Error{Code: resource.CodeInvalidRequestBody,
			Message: "EventSubscription.Properties.Topic is required in the module twin: it names the topic the subscription belongs to."}
	}
	topic, err := t.c.b.Topic(topicName)
	if err != nil {
		return err
	}
	cfg, err := resource.DecodeSubscriptionProperties(topic.Name, topic.Schema, name, raw, t.c.opts.Limits)
	if err != nil {
		return err
	}
	if cur, err := t.c.b.Subscription(topic.Name, name); err == nil && sameSubscription(cur, cfg) {
		return nil
	}
	_, _, err = t.c.b.PutSubscription(cfg, broker.WithHandshake(t.c.ctx))
	return err
}

func sameSubscription(a, b broker.SubscriptionConfig) bool {
	ra, _ := json.Marshal(resource.RenderSubscription(a, resource.Identity{}, resource.ForStore).Properties)
	rb, _ := json.Marshal(resource.RenderSubscription(b, resource.Identity{}, resource.ForStore).Properties)
	return string(ra) == string(rb)
}

func (t *twin) logFailure(kind, name string, err error) {
	if err != nil {
		t.c.log.Warn().Str(kind, name).Err(err).Msg("module twin: desired " + kind + " not applied; reported under errors")
	}
}

func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }
