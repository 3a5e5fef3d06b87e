package broker

import (
	"sync/atomic"

	"github.com/edgegrid/edgegrid/eventschema"
)

// topic is a topic's runtime. Its subscription list is copy-on-write so Publish
// reads it without locking.
type topic struct {
	name   string
	schema eventschema.Schema
	subs   atomic.Pointer[[]*subscription]
	stats  TopicStats
}

func newTopic(cfg TopicConfig) *topic {
	t := &topic{name: cfg.Name, schema: cfg.Schema}
	t.subs.Store(&[]*subscription{})
	return t
}

func (t *topic) subscriptions() []*subscription { return *t.subs.Load() }

// setSubscriptions replaces the list; callers hold the broker's registry lock.
func (t *topic) setSubscriptions(s []*subscription) { t.subs.Store(&s) }

func (t *topic) config() TopicConfig { return TopicConfig{Name: t.name, Schema: t.schema} }
