package deploy

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/destination/edgehub"
	"github.com/edgegrid/edgegrid/destination/webhook"
	"github.com/edgegrid/edgegrid/hostconfig"
	"github.com/edgegrid/edgegrid/resource"
)

// twinConfigs decodes the module twin's desired topics and subscriptions as
// the module does: bare properties objects, arrays as JSON strings, each
// subscription naming its topic.
func twinConfigs(t *testing.T, m *manifest, limits resource.Limits) ([]broker.TopicConfig, []broker.SubscriptionConfig) {
	t.Helper()
	twin := m.ModulesContent.EventGrid.Desired
	if len(twin.Topics) == 0 || len(twin.EventSubscriptions) == 0 {
		t.Fatal("the eventgridmodule twin has no example topic or subscription")
	}
	var topics []broker.TopicConfig
	for name, raw := range twin.Topics {
		tc, err := resource.DecodeTopicPropertiesJSON(name, raw)
		if err != nil {
			t.Fatalf("twin topic %s: %v", name, err)
		}
		topics = append(topics, tc)
	}
	var subs []broker.SubscriptionConfig
	for name, raw := range twin.EventSubscriptions {
		topic := resource.SubscriptionPropertiesTopic(raw)
		i := slices.IndexFunc(topics, func(tc broker.TopicConfig) bool { return topic != "" && strings.EqualFold(tc.Name, topic) })
		if i < 0 {
			t.Fatalf("twin subscription %s names topic %q, which the twin does not define", name, topic)
		}
		sc, err := resource.DecodeSubscriptionProperties(topics[i].Name, topics[i].Schema, name, raw, limits)
		if err != nil {
			t.Fatalf("twin subscription %s: %v", name, err)
		}
		subs = append(subs, sc)
	}
	return topics, subs
}

// TestTwinDesiredProperties: the twin's example topics and subscriptions are
// accepted by a broker configured from the manifest's environment (WebHook
// endpoints checked against its outbound__webhook__ settings), as the module
// applies them.
func TestTwinDesiredProperties(t *testing.T) {
	m := loadManifest(t)
	cfg, err := hostconfig.Load(moduleEnviron(t, m.eventGrid(t)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := broker.New(broker.Config{},
		broker.WithFactory(destination.WebHook, webhook.NewFactory(webhook.Options{
			HTTPSOnly: cfg.Outbound.WebhookHTTPSOnly, AllowUnknownCA: cfg.Outbound.WebhookAllowUnknownCA})),
		broker.WithFactory(destination.EdgeHub, edgehub.OfflineFactory{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Shutdown(context.Background()) })
	limits := resource.DefaultLimits()
	limits.MaxEventsPerBatch = cfg.API.MaxEventsPerBatch
	limits.MaxPreferredBatchSizeInKilobytes = cfg.API.MaxPreferredBatchSizeInKilobytes
	limits.MaxBatchSizeInBytes = cfg.API.MaxBatchSizeInBytes
	topics, subs := twinConfigs(t, m, limits)
	for _, tc := range topics {
		if _, _, err := b.PutTopic(tc); err != nil {
			t.Fatalf("twin topic %s: %v", tc.Name, err)
		}
	}
	for _, sc := range subs {
		if _, _, err := b.PutSubscription(sc); err != nil {
			t.Fatalf("twin subscription %s: %v", sc.Name, err)
		}
	}
}

// edgeHubOutputs returns the output names of the twin's EdgeHub subscriptions.
func edgeHubOutputs(t *testing.T, m *manifest) []string {
	t.Helper()
	_, subs := twinConfigs(t, m, resource.DefaultLimits())
	var outs []string
	for _, sc := range subs {
		if sc.Destination.Type == destination.EdgeHub && !slices.Contains(outs, sc.Destination.OutputName) {
			outs = append(outs, sc.Destination.OutputName)
		}
	}
	if len(outs) == 0 {
		t.Fatal("the twin has no EdgeHub subscription")
	}
	return outs
}
