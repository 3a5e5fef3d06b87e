package hostconfig_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/hostconfig"
)

func TestInputRoutes(t *testing.T) {
	cases := map[string]struct {
		value string
		want  hostconfig.InputRoutes
		err   string
	}{
		"two":            {"in1=topicA;in2=topicB", hostconfig.InputRoutes{{"in1", "topicA"}, {"in2", "topicB"}}, ""},
		"blanks":         {" in1 = topicA ; in2=topicB ;", hostconfig.InputRoutes{{"in1", "topicA"}, {"in2", "topicB"}}, ""},
		"dotted input":   {"sensor.v2=telemetry", hostconfig.InputRoutes{{"sensor.v2", "telemetry"}}, ""},
		"no equals":      {"in1", nil, "'in1' is not input=topic"},
		"empty topic":    {"in1=", nil, "is not input=topic"},
		"two equals":     {"in1=a=b", nil, "topic 'a=b'"},
		"bad topic":      {"in1=my topic", nil, "topic 'my topic'"},
		"wildcard input": {"in/#=t", nil, "input 'in/#'"},
		"twice":          {"in1=a;in1=b", nil, "listed twice"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg, err := hostconfig.Load(append(edgeEnv(), "edgeHub__inputRoutes="+tc.value))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), "edgeHub__inputRoutes") || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one about %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(cfg.EdgeHub.InputRoutes, tc.want) {
				t.Fatalf("routes %v, want %v", cfg.EdgeHub.InputRoutes, tc.want)
			}
			if cfg.Summary()["edgeHub__inputRoutes"] != tc.want.String() {
				t.Fatalf("summary %q", cfg.Summary()["edgeHub__inputRoutes"])
			}
		})
	}
	r := hostconfig.InputRoutes{{"in1", "a"}, {"in2", "b"}}
	if m := r.Map(); len(m) != 2 || m["in2"] != "b" || r.String() != "in1=a;in2=b" {
		t.Fatalf("Map %v String %q", m, r.String())
	}
}

func TestEdgeHubAddress(t *testing.T) {
	cases := map[string]struct {
		env     []string
		want    string
		warning string
	}{
		"gateway default":   {edgeEnv(), "edgehost:8883", ""},
		"override":          {edgeEnv("edgeHub__address=127.0.0.1:18883"), "127.0.0.1:18883", ""},
		"colon spelling":    {edgeEnv("EDGEHUB:ADDRESS=edgeHub:8883"), "edgeHub:8883", ""},
		"no gateway":        {edgeEnv("IOTEDGE_GATEWAYHOSTNAME="), "", "IOTEDGE_GATEWAYHOSTNAME is not set"},
		"standalone":        {nil, "", ""},
		"standalone, set":   {[]string{"edgeHub__address=h:1"}, "", "outside IoT Edge there is no edgeHub connection"},
		"ipv6 override":     {edgeEnv("edgeHub__address=[::1]:8883"), "[::1]:8883", ""},
		"gateway, any case": {edgeEnv("IOTEDGE_GATEWAYHOSTNAME=", "iotedge_gatewayhostname=GW"), "GW:8883", ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg := mustLoad(t, tc.env...)
			if got := cfg.EdgeHubAddress(); got != tc.want {
				t.Fatalf("EdgeHubAddress() = %q, want %q", got, tc.want)
			}
			if tc.warning != "" && !warningsMention(cfg.Warnings, tc.warning) {
				t.Fatalf("warnings %q lack %q", cfg.Warnings, tc.warning)
			}
			if tc.warning == "" && warningsMention(cfg.Warnings, "edgeHub") {
				t.Fatalf("unexpected warning %q", cfg.Warnings)
			}
		})
	}
	for _, bad := range []string{"edgehost", "edgehost:0", "edgehost:99999", ":8883", "edgehost:port"} {
		e := loadErr(t, edgeEnv("edgeHub__address="+bad)...)
		if names := problemNames(e); !slices.Equal(names, []string{"edgeHub__address"}) {
			t.Errorf("%s: problems %q", bad, names)
		}
	}
}
