// Package deploy checks the files users deploy edgegrid with: the IoT Edge
// deployment template, module.json and the Dockerfiles. hostconfig is the
// single source of truth for environment variable names and defaults; these
// tests hold the manifest to it.
package deploy

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// root is the repository root, where the template and Dockerfiles live.
const root = "../.."

// manifest mirrors the template form of an IoT Edge deployment manifest
// (iotedge-platform §3.1, §3.2): the parts these tests look at.
type manifest struct {
	SchemaTemplate string `json:"$schema-template"`
	ModulesContent struct {
		EdgeAgent struct {
			Desired agentDesired `json:"properties.desired"`
		} `json:"$edgeAgent"`
		EdgeHub struct {
			Desired hubDesired `json:"properties.desired"`
		} `json:"$edgeHub"`
		EventGrid struct {
			Desired twinDesired `json:"properties.desired"`
		} `json:"eventgridmodule"`
	} `json:"modulesContent"`
}

type agentDesired struct {
	SchemaVersion string `json:"schemaVersion"`
	Runtime       struct {
		Type     string `json:"type"`
		Settings struct {
			MinDockerVersion    string                     `json:"minDockerVersion"`
			LoggingOptions      string                     `json:"loggingOptions"`
			RegistryCredentials map[string]json.RawMessage `json:"registryCredentials"`
		} `json:"settings"`
	} `json:"runtime"`
	SystemModules map[string]moduleSpec `json:"systemModules"`
	Modules       map[string]moduleSpec `json:"modules"`
}

// moduleSpec is one module of $edgeAgent; createOptions stays raw so that
// createoptions_test can decode it strictly.
type moduleSpec struct {
	Version       string          `json:"version"`
	Type          string          `json:"type"`
	Status        string          `json:"status"`
	RestartPolicy string          `json:"restartPolicy"`
	StartupOrder  *int            `json:"startupOrder"`
	Settings      moduleSettings  `json:"settings"`
	Env           map[string]envV `json:"env"`
	PullPolicy    string          `json:"imagePullPolicy"`
}

type moduleSettings struct {
	Image         string          `json:"image"`
	CreateOptions json.RawMessage `json:"createOptions"`
}

// envV is {"value": <string|number|bool>}.
type envV struct {
	Value json.RawMessage `json:"value"`
}

type hubDesired struct {
	SchemaVersion string            `json:"schemaVersion"`
	Routes        map[string]string `json:"routes"`
	StoreAndFwd   struct {
		TimeToLiveSecs int `json:"timeToLiveSecs"`
	} `json:"storeAndForwardConfiguration"`
}

// twinDesired is the module twin's desired properties (edge-spec §5.3).
type twinDesired struct {
	Topics             map[string]json.RawMessage `json:"topics"`
	EventSubscriptions map[string]json.RawMessage `json:"eventSubscriptions"`
}

// loadManifest reads deployment.template.json strictly: a key the mirror
// above does not know (a typo, a misplaced setting) is an error.
func loadManifest(t *testing.T) *manifest {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, "deployment.template.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("deployment.template.json: %v", err)
	}
	if dec.More() {
		t.Fatal("deployment.template.json: data after the manifest object")
	}
	return &m
}

// eventGrid returns the edgegrid module's spec.
func (m *manifest) eventGrid(t *testing.T) moduleSpec {
	t.Helper()
	spec, ok := m.ModulesContent.EdgeAgent.Desired.Modules[moduleName]
	if !ok {
		t.Fatalf("no module %q in $edgeAgent modules", moduleName)
	}
	return spec
}

// moduleName is the name every original document gives the module.
const moduleName = "eventgridmodule"

var moduleNameRE = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)
