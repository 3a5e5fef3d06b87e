package hostconfig_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/hostconfig"
)

// edgeEnv is what edgeAgent sets for a module, with entries replaced or
// removed: an entry "NAME=" removes NAME.
func edgeEnv(changes ...string) []string {
	env := []string{
		"IOTEDGE_WORKLOADURI=unix:///var/run/iotedge/workload.sock",
		"IOTEDGE_MODULEID=eventgridmodule",
		"IOTEDGE_DEVICEID=dev1",
		"IOTEDGE_IOTHUBHOSTNAME=myhub.azure-devices.net",
		"IOTEDGE_GATEWAYHOSTNAME=edgehost",
		"IOTEDGE_MODULEGENERATIONID=637911101449272999",
		"IOTEDGE_APIVERSION=2022-08-03",
		"IOTEDGE_AUTHSCHEME=sasToken",
		"RuntimeLogLevel=Information",
	}
	for _, c := range changes {
		name, _, _ := strings.Cut(c, "=")
		env = slices.DeleteFunc(env, func(e string) bool { return strings.HasPrefix(e, name+"=") })
		env = append(env, c)
	}
	return env
}

func TestEdgeModeValidation(t *testing.T) {
	cases := map[string]struct {
		env       []string
		wantNames []string // nil: valid
	}{
		"complete":                 {edgeEnv(), nil},
		"http workload URI":        {edgeEnv("IOTEDGE_WORKLOADURI=http://workload:15580"), nil},
		"auth scheme in any case":  {edgeEnv("IOTEDGE_AUTHSCHEME=SASTOKEN"), nil},
		"auth scheme absent":       {edgeEnv("IOTEDGE_AUTHSCHEME="), nil},
		"optional names absent":    {edgeEnv("IOTEDGE_GATEWAYHOSTNAME=", "IOTEDGE_APIVERSION="), nil},
		"nested edge":              {edgeEnv("IOTEDGE_PARENTHOSTNAME=parent"), nil},
		"lower-case variable name": {edgeEnv("IOTEDGE_DEVICEID=", "iotedge_deviceid=dev2"), nil},
		"one missing":              {edgeEnv("IOTEDGE_DEVICEID="), []string{"IOTEDGE_DEVICEID"}},
		"all missing": {[]string{"IOTEDGE_WORKLOADURI=unix:///w.sock"},
			[]string{"IOTEDGE_MODULEID, IOTEDGE_DEVICEID, IOTEDGE_IOTHUBHOSTNAME, IOTEDGE_MODULEGENERATIONID"}},
		"wrong scheme":                {edgeEnv("IOTEDGE_WORKLOADURI=tcp://1.2.3.4:80"), []string{"IOTEDGE_WORKLOADURI"}},
		"unix without path":           {edgeEnv("IOTEDGE_WORKLOADURI=unix://"), []string{"IOTEDGE_WORKLOADURI"}},
		"http without host":           {edgeEnv("IOTEDGE_WORKLOADURI=http:///x"), []string{"IOTEDGE_WORKLOADURI"}},
		"bad auth scheme":             {edgeEnv("IOTEDGE_AUTHSCHEME=x509"), []string{"IOTEDGE_AUTHSCHEME"}},
		"standalone ignores the rest": {[]string{"IOTEDGE_AUTHSCHEME=x509", "IOTEDGE_MODULEID=m"}, nil},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if tc.wantNames == nil {
				mustLoad(t, tc.env...)
				return
			}
			if got := problemNames(loadErr(t, tc.env...)); !slices.Equal(got, tc.wantNames) {
				t.Errorf("problems %q, want %q", got, tc.wantNames)
			}
		})
	}
}

func TestModeAndNames(t *testing.T) {
	cases := map[string]struct {
		env                 []string
		mode                hostconfig.Mode
		hub, device, module string
	}{
		"standalone":         {nil, hostconfig.ModeStandalone, "local", "local", "eventgridmodule"},
		"standalone, custom": {[]string{"IOTEDGE_MODULEID=egm", "IOTEDGE_IOTHUBHOSTNAME=hub2.example"}, hostconfig.ModeStandalone, "hub2", "local", "egm"},
		"edge":               {edgeEnv(), hostconfig.ModeEdge, "myhub", "dev1", "eventgridmodule"},
		"edge, bare host":    {edgeEnv("IOTEDGE_IOTHUBHOSTNAME=hub3"), hostconfig.ModeEdge, "hub3", "dev1", "eventgridmodule"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg := mustLoad(t, tc.env...)
			got := []string{cfg.Mode().String(), cfg.Edge.IoTHubName(), cfg.Edge.DeviceID, cfg.Edge.ModuleID}
			want := []string{tc.mode.String(), tc.hub, tc.device, tc.module}
			if cfg.Mode() != tc.mode || !slices.Equal(got, want) {
				t.Errorf("mode, hub, device, module = %q, want %q", got, want)
			}
		})
	}
}

// TestEdgeFromProcessEnv loads the edgeAgent variables through t.Setenv.
func TestEdgeFromProcessEnv(t *testing.T) {
	for _, kv := range edgeEnv() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	cfg := mustLoad(t, os.Environ()...)
	if cfg.Mode() != hostconfig.ModeEdge || cfg.Edge.GenerationID != "637911101449272999" || cfg.Edge.APIVersion != "2022-08-03" {
		t.Errorf("Edge = %+v, mode %v", cfg.Edge, cfg.Mode())
	}
}
