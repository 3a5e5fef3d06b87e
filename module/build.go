package main

import (
	"context"
	"crypto/tls"
	"net/http"

	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/api"
	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
	mqttdest "github.com/edgegrid/edgegrid/destination/mqtt"
	"github.com/edgegrid/edgegrid/destination/webhook"
	"github.com/edgegrid/edgegrid/edgehub"
	"github.com/edgegrid/edgegrid/hostconfig"
	"github.com/edgegrid/edgegrid/metastore"
	"github.com/edgegrid/edgegrid/mqttingest"
	"github.com/edgegrid/edgegrid/resource"
)

// module is the wired program: broker, API, listeners and MQTT.
type module struct {
	cfg       *hostconfig.Config
	log       zerolog.Logger
	broker    *broker.Broker
	api       *api.Server
	sec       *security
	hub       *edgehub.Client // nil outside IoT Edge
	tls       *tls.Config
	servers   []*http.Server
	addrs     []string // listening addresses, in the order listen opened them
	serveErrs chan error
	ingest    *mqttingest.Ingest // nil when MQTT ingest is off
	mqttOut   *mqttdest.Factory  // nil when no MQTT broker is configured
}

// build wires the module. It obtains certificates first (within ctx), since
// deliveries and listeners need them; on error nothing is left running.
func build(ctx context.Context, cfg *hostconfig.Config, log zerolog.Logger, sm seams) (*module, error) {
	m := &module{cfg: cfg, log: log, serveErrs: make(chan error, 2)}
	sec, err := newSecurity(ctx, cfg, log, sm)
	if err != nil {
		return nil, err
	}
	m.sec = sec
	hooks := webhook.NewFactory(webhook.Options{
		HTTPSOnly:                cfg.Outbound.WebhookHTTPSOnly,
		SkipServerCertValidation: cfg.Outbound.WebhookSkipServerCertValidation,
		AllowUnknownCA:           cfg.Outbound.WebhookAllowUnknownCA,
		RootCAs:                  sec.bundle.Pool,
		ClientCertificate:        sec.clientCertificate(),
		UserAgent:                "edgegrid/" + version,
	})
	cloud, err := cloudFactory(cfg, log)
	if err != nil {
		sec.stop()
		return nil, err
	}
	hub, hubSenders, err := newEdgeHub(cfg, log)
	if err != nil {
		sec.stop()
		return nil, err
	}
	m.hub = hub
	mqttTLSCfg, err := mqttTLS(cfg)
	if err != nil {
		sec.stop()
		return nil, err
	}
	mqttOut, err := m.mqttDestination(mqttTLSCfg)
	if err != nil {
		sec.stop()
		return nil, err
	}
	b, err := broker.New(brokerConfig(cfg), broker.WithLogger(log),
		broker.WithFactory(destination.WebHook, hooks),
		broker.WithFactory(destination.EventGrid, cloud),
		broker.WithFactory(destination.EdgeHub, hubSenders),
		broker.WithFactory(destination.Mqtt, mqttOut))
	if err != nil {
		sec.stop()
		return nil, err
	}
	m.broker = b
	m.restoreMetadata()
	if err := m.mqttIngest(b, mqttTLSCfg); err != nil {
		m.stop(context.Background())
		return nil, err
	}
	var authn api.Authenticator
	if sec.auth.Enabled() {
		authn = sec.auth
	}
	m.api, err = api.New(api.Options{Broker: b, Logger: log, Identity: identity(cfg), Limits: limits(cfg), Auth: authn, Metrics: m.metricsHandler()})
	if err != nil {
		m.stop(context.Background())
		return nil, err
	}
	if cfg.Inbound.ServeHTTPS() {
		m.tls = sec.serverTLS(cfg)
	}
	return m, nil
}

func brokerConfig(cfg *hostconfig.Config) broker.Config {
	return broker.Config{
		DefaultMaxDeliveryAttempts: cfg.Broker.DefaultMaxDeliveryAttempts,
		DefaultEventTTL:            cfg.Broker.DefaultEventTimeToLive(),
		DefaultMaxEventsPerBatch:   cfg.Broker.DefaultMaxEventsPerBatch,
		DefaultMaxBatchBytes:       cfg.Broker.DefaultMaxBatchSizeInBytes,
		MaxBufferedBytes:           cfg.Broker.MaxBufferedBytes,
		DeliveryConcurrency:        cfg.Broker.DeliveryConcurrency,
		LogDeliverySuccess:         cfg.Broker.LogDeliverySuccess,
	}
}

func identity(cfg *hostconfig.Config) resource.Identity {
	return resource.Identity{Hub: cfg.Edge.IoTHubName(), Device: cfg.Edge.DeviceID, Module: cfg.Edge.ModuleID}
}

func limits(cfg *hostconfig.Config) resource.Limits {
	l := resource.DefaultLimits()
	l.MaxEventsPerBatch = cfg.API.MaxEventsPerBatch
	l.MaxPreferredBatchSizeInKilobytes = cfg.API.MaxPreferredBatchSizeInKilobytes
	l.MaxBatchSizeInBytes = cfg.API.MaxBatchSizeInBytes
	return l
}

// restoreMetadata loads saved definitions and attaches the store. Problems are
// logged; without a usable directory the module runs with in-memory metadata.
func (m *module) restoreMetadata() {
	dir := m.cfg.Broker.MetadataPath()
	if dir == "" {
		m.log.Info().Msg("metadata persistence is off (broker__metadataDbPath=none); definitions live in memory only")
		return
	}
	store, err := metastore.Open(dir, limits(m.cfg))
	if err != nil {
		m.log.Error().Err(err).Msg("topic and subscription definitions will not survive a restart")
		return
	}
	loaded, err := store.Load()
	if err != nil {
		m.log.Error().Err(err).Msg("saved definitions could not be read; starting without them (the file is left as it is until the next change)")
	}
	for _, p := range loaded.Problems {
		m.log.Warn().Str("problem", p).Msg("a saved definition was not restored")
	}
	for _, t := range loaded.Topics {
		if _, _, err := m.broker.PutTopic(t); err != nil {
			m.log.Warn().Err(err).Str("topic", t.Name).Msg("a saved topic was not restored")
		}
	}
	for _, s := range loaded.Subscriptions {
		if _, _, err := m.broker.PutSubscription(s); err != nil {
			m.log.Warn().Err(err).Str("topic", s.Topic).Str("subscription", s.Name).Msg("a saved event subscription was not restored")
		}
	}
	if err == nil {
		m.broker.SetStore(store)
	}
	m.log.Info().Str("path", store.Path()).Int("topics", len(loaded.Topics)).Int("eventSubscriptions", len(loaded.Subscriptions)).Msg("definitions restored")
}
