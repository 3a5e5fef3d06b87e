package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/internal/testenv"
)

// deployment is the part of deployment.template.json this test uses.
type deployment struct {
	ModulesContent struct {
		EdgeAgent struct {
			Desired struct {
				Modules map[string]struct {
					Env map[string]struct {
						Value any `json:"value"`
					} `json:"env"`
				} `json:"modules"`
			} `json:"properties.desired"`
		} `json:"$edgeAgent"`
		EventGrid struct {
			Desired json.RawMessage `json:"properties.desired"`
		} `json:"eventgridmodule"`
	} `json:"modulesContent"`
}

// manifestModule reads the template's environment for eventgridmodule and its
// twin's desired properties. broker__metadataDbPath is left out: the test
// keeps definitions in a temporary directory rather than /app/metadataDb.
func manifestModule(t *testing.T) (env []string, desired string) {
	t.Helper()
	raw, err := os.ReadFile("../../deployment.template.json")
	if err != nil {
		t.Fatal(err)
	}
	var d deployment
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	mod, ok := d.ModulesContent.EdgeAgent.Desired.Modules["eventgridmodule"]
	if !ok || len(mod.Env) == 0 || len(d.ModulesContent.EventGrid.Desired) == 0 {
		t.Fatal("the template has no eventgridmodule env or twin")
	}
	for name, v := range mod.Env {
		if !strings.EqualFold(name, "broker__metadataDbPath") {
			env = append(env, fmt.Sprintf("%s=%v", name, v.Value))
		}
	}
	return env, string(d.ModulesContent.EventGrid.Desired)
}

// TestManifestOnIoTEdge runs the binary with the deployment template's
// environment (strict TLS, client certificates, https-only webhooks) as an
// IoT Edge module, hands it the template's twin, and follows the template's
// routes: every twin topic and subscription is applied without an error,
// and a message edgeHub routes to the input sampleTopic1 comes out on the
// output sampleOutput that the template routes to the subscriber.
func TestManifestOnIoTEdge(t *testing.T) {
	t.Parallel()
	env, desired := manifestModule(t)
	wl := testenv.NewWorkload(t)
	hub := testenv.NewEdgeHub(t, wl)
	hub.SetDesired(t, desired)
	m := startEdgeModule(t, hub, env...)
	if m.HTTPURL != "" || m.HTTPSURL == "" {
		t.Fatalf("the template's strict policy should serve HTTPS only: https=%q http=%q", m.HTTPSURL, m.HTTPURL)
	}
	refused := func() map[string]any {
		errs, _ := hub.Reported()["errors"].(map[string]any)
		all := map[string]any{}
		for _, section := range []string{"topics", "eventSubscriptions"} {
			e, _ := errs[section].(map[string]any)
			for k, v := range e {
				all[section+"."+k] = v
			}
		}
		return all
	}
	testenv.Eventually(t, 10*time.Second, "twin applied and reported", func() bool {
		subs, _ := hub.Reported()["eventSubscriptions"].(map[string]any)
		return len(refused()) > 0 || subs["sampleSubscription1"] != nil && subs["sampleTopic1EdgeHubSub"] != nil
	})
	if r := refused(); len(r) > 0 {
		t.Fatalf("the template's twin was refused: %v", r)
	}
	cool := `{"id":"m-1","eventType":"recordInserted","subject":"sensor/1","eventTime":"2019-07-28T21:03:07+00:00","dataVersion":"1.0","data":{"temperature":20}}`
	hot := `{"id":"m-2","eventType":"recordInserted","subject":"sensor/1","eventTime":"2019-07-28T21:03:08+00:00","dataVersion":"1.0","data":{"temperature":35}}`
	for _, ev := range []string{cool, hot} {
		if err := hub.SendInput("sampleTopic1", []byte(ev)); err != nil {
			t.Fatal(err)
		}
	}
	out := hub.WaitOutputs(t, 1, 10*time.Second)[0]
	var evs []map[string]any
	if err := json.Unmarshal(out.Payload, &evs); err != nil || out.Properties["$.on"] != "sampleOutput" ||
		len(evs) != 1 || evs[0]["id"] != "m-2" || evs[0]["topic"] != "sampleTopic1" {
		t.Fatalf("output %s: %s", out.Topic, out.Payload)
	}
	testenv.Never(t, 300*time.Millisecond, "the filtered-out event was output", func() bool { return len(hub.Outputs()) > 1 })
	if d := hub.Denied(); len(d) > 0 {
		t.Fatalf("edgeHub would refuse %q", d)
	}
}
