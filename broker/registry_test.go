package broker_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/filter"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

type memStore struct {
	mu    sync.Mutex
	saves []broker.Snapshot
}

func (m *memStore) Save(s broker.Snapshot) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.saves = append(m.saves, s)
	return nil
}

func (m *memStore) last() broker.Snapshot {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.saves[len(m.saves)-1]
}

func TestTopicLifecycle(t *testing.T) {
	store := &memStore{}
	b, err := broker.New(broker.Config{}, broker.WithStore(store))
	if err != nil {
		t.Fatal(err)
	}
	if _, created, err := b.PutTopic(broker.TopicConfig{Name: "Sample", Schema: eventschema.Custom}); err != nil || !created {
		t.Fatalf("create: %v %v", created, err)
	}
	if _, created, err := b.PutTopic(broker.TopicConfig{Name: "sample", Schema: eventschema.Custom}); err != nil || created {
		t.Fatalf("idempotent put: %v %v", created, err)
	}
	if _, _, err := b.PutTopic(broker.TopicConfig{Name: "SAMPLE", Schema: eventschema.EventGrid}); !errors.Is(err, broker.ErrSchemaChange) {
		t.Fatalf("schema change: %v", err)
	}
	got, err := b.Topic("sAmPlE")
	if err != nil || got.Name != "Sample" {
		t.Fatalf("get: %+v %v", got, err)
	}
	if s := store.last(); len(s.Topics) != 1 || s.Topics[0].Name != "Sample" {
		t.Fatalf("store %+v", s)
	}
	if err := b.DeleteTopic("sample"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Topic("Sample"); !errors.Is(err, broker.ErrTopicNotFound) {
		t.Fatalf("after delete: %v", err)
	}
	if err := b.DeleteTopic("sample"); !errors.Is(err, broker.ErrTopicNotFound) {
		t.Fatalf("second delete: %v", err)
	}
	if len(store.last().Topics) != 0 {
		t.Fatal("store still has the topic")
	}
}

func TestSubscriptionValidation(t *testing.T) {
	h := newHarness(t, broker.Config{})
	h.topic("t", eventschema.EventGrid)
	tests := map[string]struct {
		cfg  broker.SubscriptionConfig
		want error
	}{
		"unknown topic": {broker.SubscriptionConfig{Name: "s", Topic: "nope", Destination: destination.Endpoint{Type: destination.WebHook, URL: "http://x"}}, broker.ErrTopicNotFound},
		"schema mismatch": {broker.SubscriptionConfig{Name: "s", Topic: "t", DeliverySchema: eventschema.Custom,
			Destination: destination.Endpoint{Type: destination.WebHook, URL: "http://x"}}, broker.ErrSchemaMismatch},
		"bad url":          {broker.SubscriptionConfig{Name: "s", Topic: "t", Destination: destination.Endpoint{Type: destination.WebHook, URL: "x"}}, broker.ErrInvalidDestination},
		"unsupported type": {broker.SubscriptionConfig{Name: "s", Topic: "t", Destination: destination.Endpoint{Type: destination.EdgeHub, OutputName: "o"}}, broker.ErrInvalidDestination},
		"bad filter": {broker.SubscriptionConfig{Name: "s", Topic: "t", Destination: destination.Endpoint{Type: destination.WebHook, URL: "http://x"},
			Filter: &filter.Spec{AdvancedFilters: []filter.AdvancedFilter{{OperatorType: "NumberFoo", Key: "data.x", Value: []byte("1")}}}}, broker.ErrInvalidFilter},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if _, _, err := h.b.PutSubscription(tc.cfg); !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
	if errors.Is(broker.ErrInvalidDestination, destination.ErrInvalidEndpoint) {
		t.Fatal("sentinels must stay distinct")
	}
}

func TestFanOutAndFilters(t *testing.T) {
	h := newHarness(t, broker.Config{})
	all, type0, none := testenv.NewWebhook(t), testenv.NewWebhook(t), testenv.NewWebhook(t)
	h.topic("t", eventschema.EventGrid)
	h.subscribe("t", "all", all.URL)
	h.subscribe("t", "type0", type0.URL, func(c *broker.SubscriptionConfig) {
		c.Filter = &filter.Spec{IncludedEventTypes: []string{"TYPE0"}}
	})
	h.subscribe("t", "none", none.URL, func(c *broker.SubscriptionConfig) {
		c.Filter = &filter.Spec{SubjectBeginsWith: "nothing/"}
	})
	res, err := h.b.Publish("t", events(t, "t", "e", 6, `1`))
	if err != nil || res.Accepted != 6 || res.Unmatched != 0 {
		t.Fatalf("publish %+v %v", res, err)
	}
	all.WaitCount(t, 6, 2*time.Second)
	type0.WaitCount(t, 2, 2*time.Second) // ids 0 and 3 have type0
	testenv.Never(t, 30*time.Millisecond, "filtered subscriber called", func() bool { return none.Count() > 0 })
	testenv.Eventually(t, time.Second, "buffer released", func() bool { return h.b.BufferedBytes() == 0 })
}

func TestUnmatchedEvents(t *testing.T) {
	h := newHarness(t, broker.Config{})
	h.topic("t", eventschema.EventGrid)
	res, err := h.b.Publish("t", events(t, "t", "e", 3, `1`))
	if err != nil || res.Unmatched != 3 || h.b.BufferedBytes() != 0 {
		t.Fatalf("%+v %v buffered=%d", res, err, h.b.BufferedBytes())
	}
	st, _ := h.b.TopicStats("t")
	if st.EventsReceived.Load() != 3 || st.UnmatchedEvents.Load() != 3 {
		t.Fatalf("stats received=%d unmatched=%d", st.EventsReceived.Load(), st.UnmatchedEvents.Load())
	}
	if _, err := h.b.Publish("missing", events(t, "missing", "e", 1, `1`)); !errors.Is(err, broker.ErrTopicNotFound) {
		t.Fatalf("publish to a missing topic: %v", err)
	}
}

// TestUpdateKeepsQueue: updating a subscription's destination keeps its queued
// events; the retry goes to the new endpoint.
func TestUpdateKeepsQueue(t *testing.T) {
	h := newHarness(t, broker.Config{})
	oldHook, newHook := testenv.NewWebhook(t), testenv.NewWebhook(t)
	oldHook.Script(500)
	h.topic("t", eventschema.EventGrid)
	h.subscribe("t", "s", oldHook.URL)
	h.publish("t", events(t, "t", "e", 1, `1`))
	h.waitRetrying("t", "s", 1, 1)
	if _, created, err := h.b.PutSubscription(broker.SubscriptionConfig{Name: "S", Topic: "t",
		Destination: destination.Endpoint{Type: destination.WebHook, URL: newHook.URL}}); err != nil || created {
		t.Fatalf("update: %v %v", created, err)
	}
	h.clock.Advance(time.Minute)
	newHook.WaitCount(t, 1, 2*time.Second)
	cfg, _ := h.b.Subscription("t", "s")
	if cfg.Name != "s" || cfg.Destination.URL != newHook.URL {
		t.Fatalf("config after update %+v", cfg)
	}
}

func TestPersistencePolicyImmutable(t *testing.T) {
	h := newHarness(t, broker.Config{})
	hook := testenv.NewWebhook(t)
	h.topic("t", eventschema.EventGrid)
	h.subscribe("t", "s", hook.URL, func(c *broker.SubscriptionConfig) { c.Persisted = ptr(true) })
	_, _, err := h.b.PutSubscription(broker.SubscriptionConfig{Name: "s", Topic: "t", Persisted: ptr(false),
		Destination: destination.Endpoint{Type: destination.WebHook, URL: hook.URL}})
	if !errors.Is(err, broker.ErrPersistenceChange) {
		t.Fatalf("err = %v", err)
	}
}

func TestDeleteSubscriptionReleasesEvents(t *testing.T) {
	h := newHarness(t, broker.Config{})
	hook := testenv.NewWebhook(t)
	hook.Script(500)
	h.topic("t", eventschema.EventGrid)
	h.subscribe("t", "s", hook.URL)
	h.publish("t", events(t, "t", "e", 3, `1`))
	h.waitRetrying("t", "s", 1, 3)
	if err := h.b.DeleteSubscription("t", "S"); err != nil {
		t.Fatal(err)
	}
	if h.b.BufferedBytes() != 0 {
		t.Fatalf("%d bytes still buffered", h.b.BufferedBytes())
	}
	if _, err := h.b.Subscription("t", "s"); !errors.Is(err, broker.ErrSubscriptionNotFound) {
		t.Fatalf("get after delete: %v", err)
	}
	if err := h.b.DeleteSubscription("t", "s"); !errors.Is(err, broker.ErrSubscriptionNotFound) {
		t.Fatalf("second delete: %v", err)
	}
}

func TestDeleteTopicDeletesSubscriptions(t *testing.T) {
	h := newHarness(t, broker.Config{})
	hook := testenv.NewWebhook(t)
	h.topic("t", eventschema.EventGrid)
	h.subscribe("t", "s", hook.URL)
	if err := h.b.DeleteTopic("t"); err != nil {
		t.Fatal(err)
	}
	h.topic("t", eventschema.EventGrid)
	if subs, err := h.b.Subscriptions("t"); err != nil || len(subs) != 0 {
		t.Fatalf("recreated topic has %d subscriptions (%v)", len(subs), err)
	}
}

func TestPublishJSON(t *testing.T) {
	h := newHarness(t, broker.Config{})
	hook := testenv.NewWebhook(t)
	h.topic("c", eventschema.Custom)
	h.subscribe("c", "s", hook.URL)
	if _, err := h.b.PublishJSON("c", []byte(`{"raw":1}`), eventschema.ShapeAny); err != nil {
		t.Fatal(err)
	}
	if got := string(hook.WaitCount(t, 1, 2*time.Second)[0].Body); got != `[{"raw":1}]` {
		t.Fatalf("delivered %s", got)
	}
	var pe *eventschema.ParseError
	if _, err := h.b.PublishJSON("c", []byte(`not json`), eventschema.ShapeAny); !errors.As(err, &pe) {
		t.Fatalf("bad body: %v", err)
	}
	if _, err := h.b.PublishJSON("nope", []byte(`{}`), eventschema.ShapeAny); !errors.Is(err, broker.ErrTopicNotFound) {
		t.Fatalf("unknown topic: %v", err)
	}
}
