package deploy

import (
	"strconv"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/hostconfig"
)

// TestModulePorts: the module publishes its HTTPS port as 4438 on the host,
// as the original's documents show, and its HTTP port only when the
// manifest's TLS policy serves HTTP; no other port.
func TestModulePorts(t *testing.T) {
	spec := loadManifest(t).eventGrid(t)
	cfg, err := hostconfig.Load(moduleEnviron(t, spec))
	if err != nil {
		t.Fatal(err)
	}
	c := decodeCreateOptions(t, spec.Settings.CreateOptions)
	if c.HostConfig == nil {
		t.Fatal("eventgridmodule has no HostConfig")
	}
	want := map[string]bool{strconv.Itoa(cfg.Inbound.HTTPSPort) + "/tcp": cfg.Inbound.ServeHTTPS(),
		strconv.Itoa(cfg.Inbound.HTTPPort) + "/tcp": cfg.Inbound.ServeHTTP()}
	for key, served := range want {
		_, published := c.HostConfig.PortBindings[key]
		if published != served {
			t.Errorf("port %s: published %v, but the listener runs: %v", key, published, served)
		}
	}
	for key := range c.HostConfig.PortBindings {
		if _, ok := want[key]; !ok {
			t.Errorf("port %s is published but the module does not listen on it", key)
		}
	}
	https := c.HostConfig.PortBindings["4438/tcp"]
	if len(https) != 1 || https[0].HostPort != "4438" {
		t.Errorf("4438/tcp bindings %+v, want host port 4438", https)
	}
}

// TestMetadataVolume: a volume is bound where the module keeps its topic and
// subscription definitions, so they survive a redeploy (edge-spec §8).
func TestMetadataVolume(t *testing.T) {
	spec := loadManifest(t).eventGrid(t)
	cfg, err := hostconfig.Load(moduleEnviron(t, spec))
	if err != nil {
		t.Fatal(err)
	}
	dir := cfg.Broker.MetadataPath()
	if dir == "" {
		t.Fatal("the manifest turns metadata persistence off")
	}
	c := decodeCreateOptions(t, spec.Settings.CreateOptions)
	for _, b := range c.HostConfig.Binds {
		if parts := strings.Split(b, ":"); len(parts) >= 2 && parts[1] == dir {
			return
		}
	}
	t.Errorf("no bind targets %s (binds %v)", dir, c.HostConfig.Binds)
}
