package metrics

import (
	"io"
	"net/http"
	"sort"
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/retry"
)

// Source is what metrics read: the broker.
type Source interface {
	Statuses() ([]broker.TopicStatus, []broker.SubscriptionStatus)
	BufferedBytes() int64
	Config() broker.Config
}

var _ Source = (*broker.Broker)(nil)

// msBounds are the histogram bounds in milliseconds; secBounds in seconds.
var msBounds, secBounds = bounds()

func bounds() (ms, sec []float64) {
	for _, b := range broker.HistogramBounds {
		ms = append(ms, b)
		sec = append(sec, b/1000)
	}
	return ms, sec
}

// Handler serves /metrics; extras add other components' metrics.
func Handler(src Source, version string, extras ...Extra) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		_ = Write(w, src, version, extras...)
	})
}

// Write renders every metric.
func Write(w io.Writer, src Source, version string, extras ...Extra) error {
	topics, subs := src.Statuses()
	fams := topicFamilies(topics)
	fams = append(fams, subscriptionFamilies(subs)...)
	fams = append(fams, edgegridFamilies(src, topics, subs, version)...)
	fams = append(fams, extraFamilies(extras)...)
	fams = append(fams, processFamilies()...)
	return write(w, fams)
}

func topicFamilies(ts []broker.TopicStatus) []*family {
	recv := &family{name: "EventsReceived", help: "Events published to the topic.", kind: counter}
	unm := &family{name: "UnmatchedEvents", help: "Published events that matched no subscription and were dropped.", kind: counter}
	ok := &family{name: "SuccessRequests", help: "Publish requests accepted.", kind: counter}
	sys := &family{name: "SystemErrorRequests", help: "Publish requests failed by an internal error.", kind: counter}
	usr := &family{name: "UserErrorRequests", help: "Publish requests failed by a user error such as malformed JSON.", kind: counter}
	lat := &family{name: "SuccessRequestLatencyMs", help: "Time to answer accepted publish requests, in milliseconds.", kind: histogram}
	for _, t := range ts {
		s := t.Stats
		recv.add(float64(s.EventsReceived.Load()), "topic", t.Name)
		unm.add(float64(s.UnmatchedEvents.Load()), "topic", t.Name)
		ok.add(float64(s.SuccessRequests.Load()), "topic", t.Name)
		sys.add(float64(s.SystemErrorRequests.Load()), "topic", t.Name)
		usr.add(float64(s.UserErrorRequests.Load()), "topic", t.Name)
		counts, sum := s.PublishLatency.Snapshot()
		lat.addHistogram(counts, msBounds, ms(sum), "topic", t.Name)
	}
	return []*family{recv, unm, ok, sys, usr, lat}
}

func subscriptionFamilies(ss []broker.SubscriptionStatus) []*family {
	succ := &family{name: "deliverySuccessCounts", help: "Events delivered.", kind: counter}
	fail := &family{name: "deliveryFailureCounts", help: "Failed delivery attempts.", kind: counter}
	slat := &family{name: "deliverySuccessLatencyMs", help: "Duration of successful delivery requests, in milliseconds.", kind: histogram}
	flat := &family{name: "deliveryFailureLatencyMs", help: "Duration of failed delivery requests, in milliseconds.", kind: histogram}
	first := &family{name: "systemDelayForFirstAttemptMs", help: "Time from publishing to the first delivery attempt, in milliseconds.", kind: histogram}
	att := &family{name: "deliveryAttemptsCount", help: "Delivery attempts, successful and failed.", kind: counter}
	exp := &family{name: "expiredCounts", help: "Events dropped because their time to live passed.", kind: counter}
	for _, s := range ss {
		l := labels("topic", s.Topic, "subscription", s.Name)
		st := s.Stats
		succ.add(float64(st.Delivered.Load()), l...)
		fail.add(float64(st.FailedAttempts.Load()), l...)
		c, sum := st.DeliveryLatency.Snapshot()
		slat.addHistogram(c, msBounds, ms(sum), l...)
		c, sum = st.FailureLatency.Snapshot()
		flat.addHistogram(c, msBounds, ms(sum), l...)
		c, sum = st.FirstAttemptDelay.Snapshot()
		first.addHistogram(c, msBounds, ms(sum), l...)
		att.add(float64(st.Attempts.Load()), l...)
		exp.add(float64(st.Dropped()[string(retry.TimeToLiveExceeded)]), l...)
	}
	return []*family{succ, fail, slat, flat, first, att, exp}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// sortedKeys returns a map's keys in order, for stable output.
func sortedKeys(m map[string]int64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
