package deploy

import (
	"bytes"
	"encoding/json"
	"net"
	"path"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// containerCreate mirrors the body of the Docker Engine API's
// POST /containers/create (ContainerConfig with HostConfig), which edgeAgent
// passes createOptions through to. Only the fields a module manifest
// commonly sets are mirrored; a key outside them (or misspelt) fails
// decoding. Keys are the API's exact Go field names.
type containerCreate struct {
	Hostname         string              `json:",omitempty"`
	User             string              `json:",omitempty"`
	Env              []string            `json:",omitempty"`
	Cmd              []string            `json:",omitempty"`
	Entrypoint       []string            `json:",omitempty"`
	WorkingDir       string              `json:",omitempty"`
	Labels           map[string]string   `json:",omitempty"`
	ExposedPorts     map[string]struct{} `json:",omitempty"`
	HostConfig       *hostConfig         `json:",omitempty"`
	NetworkingConfig *networkingConfig   `json:",omitempty"`
}

type hostConfig struct {
	Binds        []string                 `json:",omitempty"`
	PortBindings map[string][]portBinding `json:",omitempty"`
	NetworkMode  string                   `json:",omitempty"`
	ExtraHosts   []string                 `json:",omitempty"`
	Memory       int64                    `json:",omitempty"`
	LogConfig    *struct {
		Type   string            `json:",omitempty"`
		Config map[string]string `json:",omitempty"`
	} `json:",omitempty"`
}

type portBinding struct {
	HostIp   string `json:",omitempty"` //nolint:revive // the API's spelling
	HostPort string `json:",omitempty"`
}

type networkingConfig struct {
	EndpointsConfig map[string]json.RawMessage `json:",omitempty"`
}

// decodeCreateOptions decodes createOptions strictly and checks that it is
// exactly its canonical form, so a key in the wrong case (which Go's decoder
// would accept) is caught too. An absent createOptions is an empty one.
func decodeCreateOptions(t *testing.T, raw json.RawMessage) containerCreate {
	t.Helper()
	var c containerCreate
	if len(raw) == 0 {
		return c
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		t.Fatalf("createOptions %s is not of the Docker API shape: %v", raw, err)
	}
	canonical, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var got, want any
	_ = json.Unmarshal(raw, &got)
	_ = json.Unmarshal(canonical, &want)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("createOptions %s differs from the Docker API spelling %s", raw, canonical)
	}
	return c
}

var portKeyRE = regexp.MustCompile(`^([0-9]{1,5})/(tcp|udp|sctp)$`)

// TestCreateOptionsDockerShape: every module's createOptions decodes as a
// container create body, its port keys are "port/proto" with valid host
// bindings, its binds are "source:/absolute/target[:options]", and minified
// it fits iotedgedev's eight 512-character chunks.
func TestCreateOptionsDockerShape(t *testing.T) {
	agent := loadManifest(t).ModulesContent.EdgeAgent.Desired
	all := map[string]moduleSpec{}
	for n, s := range agent.SystemModules {
		all["systemModules."+n] = s
	}
	for n, s := range agent.Modules {
		all["modules."+n] = s
	}
	for name, spec := range all {
		c := decodeCreateOptions(t, spec.Settings.CreateOptions)
		var min bytes.Buffer
		if err := json.Compact(&min, spec.Settings.CreateOptions); err == nil && min.Len() > 8*512 {
			t.Errorf("%s: createOptions is %d characters minified; iotedgedev allows 4096", name, min.Len())
		}
		if c.HostConfig == nil {
			continue
		}
		for key, bindings := range c.HostConfig.PortBindings {
			checkPortBinding(t, name, key, bindings)
		}
		for _, b := range c.HostConfig.Binds {
			parts := strings.Split(b, ":")
			if len(parts) < 2 || len(parts) > 3 || parts[0] == "" || !path.IsAbs(parts[1]) {
				t.Errorf("%s: bind %q is not source:/absolute/target[:options]", name, b)
			}
		}
	}
}

func checkPortBinding(t *testing.T, module, key string, bindings []portBinding) {
	t.Helper()
	m := portKeyRE.FindStringSubmatch(key)
	if m == nil || !validPort(m[1]) {
		t.Errorf("%s: port key %q is not port/tcp|udp|sctp", module, key)
	}
	if len(bindings) == 0 {
		t.Errorf("%s: port %s has no binding", module, key)
	}
	for _, b := range bindings {
		if !validPort(b.HostPort) {
			t.Errorf("%s: port %s: HostPort %q is not a port number", module, key, b.HostPort)
		}
		if b.HostIp != "" && net.ParseIP(b.HostIp) == nil {
			t.Errorf("%s: port %s: HostIp %q is not an IP address", module, key, b.HostIp)
		}
	}
}

func validPort(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n >= 1 && n <= 65535 && strconv.Itoa(n) == s
}
