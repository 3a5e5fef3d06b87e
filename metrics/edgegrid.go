package metrics

import "github.com/edgegrid/edgegrid/broker"

// edgegridFamilies are edgegrid's own metrics, named per Prometheus conventions.
func edgegridFamilies(src Source, ts []broker.TopicStatus, ss []broker.SubscriptionStatus, version string) []*family {
	info := &family{name: "edgegrid_build_info", help: "Build information; the value is always 1.", kind: gauge}
	info.add(1, "version", version)
	buf := &family{name: "edgegrid_buffered_bytes", help: "Bytes of undelivered events held in memory (payload plus bookkeeping).", kind: gauge}
	buf.add(float64(src.BufferedBytes()))
	lim := &family{name: "edgegrid_buffered_bytes_limit", help: "broker__maxBufferedBytes: publishing answers 503 beyond it.", kind: gauge}
	lim.add(float64(src.Config().MaxBufferedBytes))
	recv := &family{name: "edgegrid_events_received_total", help: "Events accepted per topic.", kind: counter}
	for _, t := range ts {
		recv.add(float64(t.Stats.EventsReceived.Load()), "topic", t.Name)
	}
	return append([]*family{info, buf, lim, recv}, perSubscription(ss)...)
}

func perSubscription(ss []broker.SubscriptionStatus) []*family {
	matched := &family{name: "edgegrid_events_matched_total", help: "Events queued for the subscription (its filter matched).", kind: counter}
	deliv := &family{name: "edgegrid_events_delivered_total", help: "Events delivered.", kind: counter}
	failed := &family{name: "edgegrid_delivery_failed_attempts_total", help: "Failed delivery requests.", kind: counter}
	dropped := &family{name: "edgegrid_events_dropped_total", help: "Events whose delivery ended without success, by reason.", kind: counter}
	lost := &family{name: "edgegrid_events_lost_total", help: "Undelivered events discarded when the subscription or topic was deleted, or at shutdown.", kind: counter}
	dl := &family{name: "edgegrid_events_deadlettered_total", help: "Dropped events handed to the dead-letter destination.", kind: counter}
	deferred := &family{name: "edgegrid_events_deferred_total", help: "Fresh events sent to the retry queue by delayed delivery.", kind: counter}
	depth := &family{name: "edgegrid_queue_depth", help: "Deliveries waiting, by queue: ready (immediate), 1m and 10m (retry).", kind: gauge}
	delayed := &family{name: "edgegrid_subscription_delayed", help: "1 while the subscription is in delayed delivery after consistent failures.", kind: gauge}
	lat := &family{name: "edgegrid_delivery_latency_seconds", help: "Duration of successful delivery requests.", kind: histogram}
	for _, s := range ss {
		l := labels("topic", s.Topic, "subscription", s.Name)
		st := s.Stats
		matched.add(float64(st.Matched.Load()), l...)
		deliv.add(float64(st.Delivered.Load()), l...)
		failed.add(float64(st.FailedAttempts.Load()), l...)
		drops := st.Dropped()
		for _, r := range sortedKeys(drops) {
			dropped.add(float64(drops[r]), append(l, "reason", r)...)
		}
		lost.add(float64(st.Lost.Load()), l...)
		dl.add(float64(st.DeadLettered.Load()), l...)
		deferred.add(float64(st.Deferred.Load()), l...)
		depth.add(float64(s.Ready), append(l, "queue", "ready")...)
		depth.add(float64(s.OneMinute), append(l, "queue", "1m")...)
		depth.add(float64(s.TenMinutes), append(l, "queue", "10m")...)
		d := 0.0
		if s.Delayed {
			d = 1
		}
		delayed.add(d, l...)
		c, sum := st.DeliveryLatency.Snapshot()
		lat.addHistogram(c, secBounds, sum.Seconds(), l...)
	}
	return []*family{matched, deliv, failed, dropped, lost, dl, deferred, depth, delayed, lat}
}
