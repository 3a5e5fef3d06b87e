package main

import (
	"net/http"

	"github.com/edgegrid/edgegrid/hostconfig"
	"github.com/edgegrid/edgegrid/metrics"
)

// metricsHandler serves /metrics when metrics__reporterType=prometheus,
// including the MQTT and edgeHub ingest counters when those run.
func (m *module) metricsHandler() http.Handler {
	if m.cfg.Metrics.ReporterType != hostconfig.ReporterPrometheus {
		return nil
	}
	return metrics.Handler(m.broker, version, m.ingestMetrics)
}

// ingestMetrics reports the ingest components' counters at scrape time.
func (m *module) ingestMetrics() []metrics.Sample {
	var out []metrics.Sample
	if m.ingest != nil {
		st := m.ingest.Stats()
		for _, c := range []struct {
			name, help string
			v          int64
		}{
			{"edgegrid_mqtt_messages_received_total", "Messages the MQTT broker delivered.", st.Received},
			{"edgegrid_mqtt_messages_published_total", "Messages a topic accepted.", st.Published},
			{"edgegrid_mqtt_busy_total", "Offers refused because the buffer was full (each retry counts).", st.Busy},
			{"edgegrid_mqtt_deferred_total", "QoS 1 messages left unacknowledged because the ingest queue was full.", st.Deferred},
			{"edgegrid_mqtt_dropped_total", "QoS 0 messages lost.", st.Dropped},
			{"edgegrid_mqtt_resyncs_total", "Reconnects forced so the MQTT broker resends deferred messages.", st.Resyncs},
		} {
			out = append(out, metrics.Sample{Name: c.name, Help: c.help, Value: float64(c.v)})
		}
		for cause, n := range st.Refusals {
			out = append(out, metrics.Sample{Name: "edgegrid_mqtt_messages_refused_total",
				Help: "Messages acknowledged and dropped, by cause.", Labels: []string{"cause", cause}, Value: float64(n)})
		}
		out = append(out, metrics.Sample{Name: "edgegrid_mqtt_connected", Help: "1 while connected to the MQTT broker.", Gauge: true, Value: b2f(st.Connected)},
			metrics.Sample{Name: "edgegrid_mqtt_queue_depth", Help: "Messages waiting in the ingest queue.", Gauge: true, Value: float64(st.Queued)})
	}
	if m.hub != nil {
		st := m.hub.Stats()
		out = append(out, metrics.Sample{Name: "edgegrid_edgehub_connects_total", Help: "Connections to edgeHub.", Value: float64(st.Connects)},
			metrics.Sample{Name: "edgegrid_edgehub_inputs_accepted_total", Help: "Module input messages published to a topic.", Value: float64(st.InputsAccepted)})
		for cause, n := range st.InputsDropped {
			out = append(out, metrics.Sample{Name: "edgegrid_edgehub_inputs_dropped_total",
				Help: "Module input messages acknowledged and dropped, by cause.", Labels: []string{"cause", cause}, Value: float64(n)})
		}
	}
	return out
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
