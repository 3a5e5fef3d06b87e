package deploy

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestManifestStructure: the template has the standard form the IoT Edge
// tooling expects (iotedge-platform §3.1–3.3): template schema 4.0.0,
// edgeAgent and edgeHub 1.5 with their schema versions, and modules whose
// names, types, statuses and restart policies are allowed values.
func TestManifestStructure(t *testing.T) {
	m := loadManifest(t)
	if m.SchemaTemplate != "4.0.0" {
		t.Errorf("$schema-template %q, want 4.0.0", m.SchemaTemplate)
	}
	agent := m.ModulesContent.EdgeAgent.Desired
	if agent.SchemaVersion != "1.1" {
		t.Errorf("$edgeAgent schemaVersion %q, want 1.1", agent.SchemaVersion)
	}
	if agent.Runtime.Type != "docker" || agent.Runtime.Settings.MinDockerVersion == "" {
		t.Errorf("$edgeAgent runtime %+v", agent.Runtime)
	}
	for name, image := range map[string]string{
		"edgeAgent": "mcr.microsoft.com/azureiotedge-agent:1.5",
		"edgeHub":   "mcr.microsoft.com/azureiotedge-hub:1.5",
	} {
		if got := agent.SystemModules[name].Settings.Image; got != image {
			t.Errorf("systemModules.%s image %q, want %q", name, got, image)
		}
	}
	if hub := agent.SystemModules["edgeHub"]; hub.Status != "running" || hub.RestartPolicy != "always" {
		t.Errorf("edgeHub status %q restartPolicy %q", hub.Status, hub.RestartPolicy)
	}
	if len(agent.Modules) < 2 {
		t.Errorf("modules %v: want %s and a sample subscriber", slices.Collect(maps.Keys(agent.Modules)), moduleName)
	}
	for name, spec := range agent.Modules {
		checkModule(t, name, spec)
	}
	if v := m.ModulesContent.EdgeHub.Desired.SchemaVersion; v != "1.1" {
		t.Errorf("$edgeHub schemaVersion %q, want 1.1", v)
	}
	if ttl := m.ModulesContent.EdgeHub.Desired.StoreAndFwd.TimeToLiveSecs; ttl <= 0 {
		t.Errorf("storeAndForwardConfiguration.timeToLiveSecs %d", ttl)
	}
}

func checkModule(t *testing.T, name string, spec moduleSpec) {
	t.Helper()
	if !moduleNameRE.MatchString(name) {
		t.Errorf("module name %q does not match %s", name, moduleNameRE)
	}
	if spec.Type != "docker" || !slices.Contains([]string{"running", "stopped"}, spec.Status) ||
		!slices.Contains([]string{"never", "on-failure", "on-unhealthy", "always"}, spec.RestartPolicy) {
		t.Errorf("module %s: type %q status %q restartPolicy %q", name, spec.Type, spec.Status, spec.RestartPolicy)
	}
	if spec.Settings.Image == "" {
		t.Errorf("module %s has no image", name)
	}
	if spec.PullPolicy != "" && spec.PullPolicy != "on-create" && spec.PullPolicy != "never" {
		t.Errorf("module %s imagePullPolicy %q", name, spec.PullPolicy)
	}
}

// moduleDirRE is iotedgedev's image placeholder for a module.json in a
// folder relative to the template, optionally with a platform.
var moduleDirRE = regexp.MustCompile(`^\$\{MODULEDIR<([^>]+)>(\.[a-z0-9.-]+)?\}$`)

// TestImagePlaceholder: the module's image is the tooling's placeholder, and
// it names the folder that holds module.json.
func TestImagePlaceholder(t *testing.T) {
	image := loadManifest(t).eventGrid(t).Settings.Image
	sub := moduleDirRE.FindStringSubmatch(image)
	if sub == nil {
		t.Fatalf("image %q is not a ${MODULEDIR<path>} placeholder", image)
	}
	if _, err := os.Stat(filepath.Join(root, sub[1], "module.json")); err != nil {
		t.Fatalf("image placeholder %q: %v", image, err)
	}
	if !strings.HasPrefix(sub[1], "./") {
		t.Errorf("MODULEDIR path %q should be relative to the template (./…)", sub[1])
	}
}
