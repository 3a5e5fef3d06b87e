package main

import (
	"context"
	"net"
	"time"

	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/destination"
	ehdest "github.com/edgegrid/edgegrid/destination/edgehub"
	"github.com/edgegrid/edgegrid/edgehub"
	"github.com/edgegrid/edgegrid/hostconfig"
	"github.com/edgegrid/edgegrid/workload"
)

// edgeHubCloseTimeout bounds the disconnect from edgeHub at shutdown.
const edgeHubCloseTimeout = 2 * time.Second

// newEdgeHub builds the connection to edgeHub in IoT Edge mode and the
// EdgeHub destination that publishes through it. Outside IoT Edge (or with
// no address for edgeHub) there is no connection and EdgeHub subscriptions
// get senders that report "not connected", which the broker retries.
func newEdgeHub(cfg *hostconfig.Config, log zerolog.Logger) (*edgehub.Client, destination.Factory, error) {
	addr := cfg.EdgeHubAddress()
	if addr == "" {
		return nil, ehdest.OfflineFactory{}, nil
	}
	e := cfg.Edge
	wc, err := workload.New(workload.Options{URI: e.WorkloadURI, ModuleID: e.ModuleID, GenerationID: e.GenerationID, APIVersion: e.APIVersion})
	if err != nil {
		return nil, nil, err
	}
	gateway := e.GatewayHostname
	if gateway == "" {
		gateway, _, _ = net.SplitHostPort(addr) // edgeHub__address alone: its host is the TLS name
	}
	c, err := edgehub.New(edgehub.Options{
		Identity:    edgehub.Identity{HubHostname: e.IoTHubHostname, Gateway: gateway, DeviceID: e.DeviceID, ModuleID: e.ModuleID},
		Address:     addr,
		Workload:    wc,
		InputRoutes: cfg.EdgeHub.InputRoutes.Map(),
		Limits:      limits(cfg),
		ClientType:  "edgegrid/" + version,
		Logger:      &log,
	})
	if err != nil {
		return nil, nil, err
	}
	return c, ehdest.NewFactory(c, 0), nil
}

// startEdgeHub connects to edgeHub in the background.
func (m *module) startEdgeHub() {
	if m.hub != nil {
		m.hub.Start(m.broker)
	}
}

// closeEdgeHub disconnects, after the broker's drain has used the
// connection for its last EdgeHub deliveries.
func (m *module) closeEdgeHub() {
	if m.hub == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), edgeHubCloseTimeout)
	defer cancel()
	if err := m.hub.Close(ctx); err != nil {
		m.log.Warn().Err(err).Msg("edgeHub connection did not close in time")
	}
}
