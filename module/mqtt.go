package main

import (
	"context"
	"crypto/tls"
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
	mqttdest "github.com/edgegrid/edgegrid/destination/mqtt"
	"github.com/edgegrid/edgegrid/hostconfig"
	"github.com/edgegrid/edgegrid/mqttingest"
)

// mqttIngestStopTimeout bounds how long MQTT ingest may keep settling queued
// messages after SIGTERM; what is left stays with the MQTT broker.
const mqttIngestStopTimeout = 2 * time.Second

// mqttDestination returns the factory for endpointType Mqtt: a real one
// when mqtt__url is set, else one that refuses Mqtt subscriptions.
func (m *module) mqttDestination(tlsCfg *tls.Config) (destination.Factory, error) {
	mq := m.cfg.MQTT
	if !mq.Enabled() {
		return mqttdest.Disabled{}, nil
	}
	f, err := mqttdest.NewFactory(mqttdest.Options{
		URL: mq.BrokerURL(), ClientID: m.cfg.MQTTClientID() + "-pub",
		Username: mq.Username, Password: mq.Password, TLS: tlsCfg, Logger: m.log,
	})
	if err != nil {
		return nil, err
	}
	m.mqttOut = f
	f.Start() // in the background, before restored subscriptions deliver
	return f, nil
}

// mqttIngest builds the ingest when mqtt__url and mqtt__routes are set.
func (m *module) mqttIngest(b *broker.Broker, tlsCfg *tls.Config) error {
	mq := m.cfg.MQTT
	if !mq.Enabled() || len(mq.Routes) == 0 {
		if mq.Enabled() {
			m.log.Info().Msg("MQTT ingest is off: mqtt__routes is not set (the Mqtt destination is available)")
		}
		return nil
	}
	routes := make([]mqttingest.Route, len(mq.Routes))
	for i, r := range mq.Routes {
		routes[i] = mqttingest.Route{Filter: r.Filter, Topic: r.Topic, EventType: r.EventType}
	}
	in, err := mqttingest.New(mqttingest.Options{
		URL: mq.BrokerURL(), ClientID: m.cfg.MQTTClientID(), Username: mq.Username, Password: mq.Password,
		TLS: tlsCfg, Routes: routes, MaxMessageSize: mq.MaxMessageSizeInBytes, Logger: m.log,
	}, b)
	if err != nil {
		return err
	}
	m.ingest = in
	return nil
}

// mqttTLS returns the TLS configuration for an ssl:// mqtt__url.
func mqttTLS(cfg *hostconfig.Config) (*tls.Config, error) {
	if !cfg.MQTT.Enabled() {
		return nil, nil
	}
	return cfg.MQTT.TLSConfig()
}

// startMQTT starts ingest in the background; it never waits for the MQTT
// broker. Routes to topics that do not exist yet are pointed out.
func (m *module) startMQTT() {
	if m.ingest == nil {
		return
	}
	for _, r := range m.cfg.MQTT.Routes {
		if _, err := m.broker.Topic(r.Topic); err != nil {
			m.log.Warn().Str("topic", r.Topic).Str("filter", r.Filter).
				Msg("mqtt__routes names a topic that does not exist yet; its MQTT messages are refused until the topic is created")
		}
	}
	m.ingest.Start()
}

// stopMQTTIngest stops taking MQTT messages and settles the queued ones.
// It runs after the HTTP listeners stop and before the broker drains.
func (m *module) stopMQTTIngest() {
	if m.ingest == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), mqttIngestStopTimeout)
	defer cancel()
	if err := m.ingest.Close(ctx); err != nil {
		m.log.Warn().Err(err).Msg("MQTT ingest stopped before every queued message was settled; the MQTT broker sends the rest again on the next start")
	}
}

// closeMQTTOut ends the Mqtt destination's connection, after the drain.
func (m *module) closeMQTTOut() {
	if m.mqttOut != nil {
		m.mqttOut.Close()
	}
}
