package mqttingest

import (
	paho "github.com/eclipse/paho.mqtt.golang"
)

// runSession subscribes the routes' filters after every connection until
// Close.
func (in *Ingest) runSession() {
	defer in.session.Done()
	for {
		select {
		case <-in.stop:
			return
		case <-in.connected:
			in.subscribe()
		}
	}
}

// subscribe (re)subscribes every filter with QoS 1 and waits for the
// SUBACK. A transport failure needs no retry here: the connection drops and
// onConnect asks again. A filter the broker refuses (SUBACK 0x80, e.g. an
// ACL) is logged as an error; its messages cannot arrive.
func (in *Ingest) subscribe() {
	filters := make(map[string]byte, len(in.opts.Routes))
	for _, r := range in.opts.Routes {
		filters[r.Filter] = 1
	}
	tok := in.client.SubscribeMultiple(filters, nil)
	timeout := make(chan struct{})
	stopTimer := in.opts.Clock.AfterFunc(subscribeTimeout, func() { close(timeout) })
	defer stopTimer()
	select {
	case <-tok.Done():
	case <-in.stop:
		return
	case <-timeout:
		in.log.Warn().Dur("timeout", subscribeTimeout).Msg("the MQTT broker did not answer the subscription; retrying after the next reconnect")
		return
	}
	if err := tok.Error(); err != nil {
		in.log.Warn().Err(err).Msg("subscribing failed; retrying after the next reconnect")
		return
	}
	refused := 0
	if st, ok := tok.(*paho.SubscribeToken); ok {
		for f, code := range st.Result() {
			if code > 2 {
				refused++
				in.log.Error().Str("filter", f).Int("returnCode", int(code)).
					Msg("the MQTT broker refused the subscription (check its access rules); no messages will arrive for this filter")
			}
		}
	}
	in.stats.subscribed.Store(refused == 0)
	in.log.Info().Int("filters", len(filters)).Int("refused", refused).Msg("subscribed to the MQTT topic filters")
}
