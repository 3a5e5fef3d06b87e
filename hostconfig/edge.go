package hostconfig

import (
	"net/url"
	"strings"
)

// Edge is the IoT Edge runtime environment: the IOTEDGE_* variables edgeAgent
// sets for every module (iotedge-platform §1.4). Names are upper case as
// edgeAgent writes them, though Load matches them in any case too. None has
// a default. In standalone mode, Load fills an empty DeviceID and ModuleID
// with StandaloneDeviceID and StandaloneModuleID, and IoTHubName reports
// StandaloneHubName.
type Edge struct {
	// WorkloadURI is IOTEDGE_WORKLOADURI: the workload API, a unix:// socket
	// or an http(s):// URL. Its presence selects ModeEdge.
	WorkloadURI string `envconfig:"IOTEDGE_WORKLOADURI" desc:"IoT Edge workload API (unix:// or http(s)://); set: IoT Edge mode"`
	// ModuleID is IOTEDGE_MODULEID, the module's name in the manifest.
	ModuleID string `envconfig:"IOTEDGE_MODULEID" desc:"module name (set by IoT Edge)"`
	// DeviceID is IOTEDGE_DEVICEID, the edge device's id.
	DeviceID string `envconfig:"IOTEDGE_DEVICEID" desc:"device id (set by IoT Edge)"`
	// IoTHubHostname is IOTEDGE_IOTHUBHOSTNAME, <hub>.azure-devices.net.
	IoTHubHostname string `envconfig:"IOTEDGE_IOTHUBHOSTNAME" desc:"IoT Hub host name (set by IoT Edge)"`
	// GatewayHostname is IOTEDGE_GATEWAYHOSTNAME, the edge device's host
	// name; edgeHub's certificate is issued for it. Optional.
	GatewayHostname string `envconfig:"IOTEDGE_GATEWAYHOSTNAME" desc:"edge device host name (set by IoT Edge)"`
	// GenerationID is IOTEDGE_MODULEGENERATIONID, used in workload API paths.
	GenerationID string `envconfig:"IOTEDGE_MODULEGENERATIONID" desc:"module generation id (set by IoT Edge)"`
	// APIVersion is IOTEDGE_APIVERSION, the workload API version. Optional.
	APIVersion string `envconfig:"IOTEDGE_APIVERSION" desc:"workload API version (set by IoT Edge)"`
	// AuthScheme is IOTEDGE_AUTHSCHEME; optional, and when set it must be
	// sasToken (any case).
	AuthScheme string `envconfig:"IOTEDGE_AUTHSCHEME" desc:"authentication scheme, sasToken (set by IoT Edge)"`
	// ParentHostname is IOTEDGE_PARENTHOSTNAME, set only in nested edge.
	ParentHostname string `envconfig:"IOTEDGE_PARENTHOSTNAME" desc:"parent gateway host name in nested edge (set by IoT Edge)"`
}

// Mode says whether the module runs under the IoT Edge runtime.
type Mode int

// The modes Config.Mode reports.
const (
	// ModeStandalone: no IoT Edge runtime; no workload API, no edgeHub.
	ModeStandalone Mode = iota
	// ModeEdge: IOTEDGE_WORKLOADURI is set; certificates come from the
	// workload API.
	ModeEdge
)

// String returns "standalone" or "edge".
func (m Mode) String() string {
	if m == ModeEdge {
		return "edge"
	}
	return "standalone"
}

// Mode returns ModeEdge when IOTEDGE_WORKLOADURI is set, else ModeStandalone.
func (c *Config) Mode() Mode {
	if c.Edge.WorkloadURI != "" {
		return ModeEdge
	}
	return ModeStandalone
}

// IoTHubName returns the first DNS label of IOTEDGE_IOTHUBHOSTNAME, or
// StandaloneHubName when that is unset.
func (e Edge) IoTHubName() string {
	if e.IoTHubHostname == "" {
		return StandaloneHubName
	}
	name, _, _ := strings.Cut(e.IoTHubHostname, ".")
	return name
}

// fillStandalone gives a standalone module names for its resource ids.
func (e *Edge) fillStandalone() {
	if e.WorkloadURI != "" {
		return
	}
	if e.DeviceID == "" {
		e.DeviceID = StandaloneDeviceID
	}
	if e.ModuleID == "" {
		e.ModuleID = StandaloneModuleID
	}
}

// validateEdge checks the IoT Edge variables as a unit, in edge mode only.
// All missing variables are reported in one problem.
func validateEdge(e Edge) []Problem {
	if e.WorkloadURI == "" {
		return nil
	}
	var probs []Problem
	required := []struct{ name, value string }{
		{"IOTEDGE_MODULEID", e.ModuleID},
		{"IOTEDGE_DEVICEID", e.DeviceID},
		{"IOTEDGE_IOTHUBHOSTNAME", e.IoTHubHostname},
		{"IOTEDGE_MODULEGENERATIONID", e.GenerationID},
	}
	var missing []string
	for _, r := range required {
		if r.value == "" {
			missing = append(missing, r.name)
		}
	}
	if len(missing) > 0 {
		probs = append(probs, Problem{Name: strings.Join(missing, ", "),
			Reason: "missing; IoT Edge mode (IOTEDGE_WORKLOADURI is set) needs them, and edgeAgent sets them for every module"})
	}
	if !validWorkloadURI(e.WorkloadURI) {
		probs = append(probs, Problem{Name: "IOTEDGE_WORKLOADURI", Value: e.WorkloadURI,
			Reason: "must be a unix:// socket path or an http:// or https:// URL"})
	}
	if e.AuthScheme != "" && !strings.EqualFold(e.AuthScheme, "sasToken") {
		probs = append(probs, Problem{Name: "IOTEDGE_AUTHSCHEME", Value: e.AuthScheme,
			Reason: "must be sasToken, the only scheme IoT Edge defines"})
	}
	return probs
}

func validWorkloadURI(s string) bool {
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "unix":
		return u.Path != ""
	case "http", "https":
		return u.Host != ""
	}
	return false
}
