package testenv_test

import (
	"context"
	"crypto/tls"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/edgegrid/edgegrid/edgehub"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

// keySigner signs as the workload API would, with any key.
type keySigner func([]byte) []byte

func (k keySigner) Sign(_ context.Context, data []byte) ([]byte, error) { return k(data), nil }

type attempt struct {
	clientID, username string
	signer             keySigner
	resource           string
	expiry             time.Duration
}

func dial(t *testing.T, hub *testenv.EdgeHub, a attempt) (paho.Client, error) {
	t.Helper()
	tok, err := edgehub.Token(context.Background(), a.signer, a.resource, time.Now().Add(a.expiry))
	if err != nil {
		t.Fatal(err)
	}
	o := paho.NewClientOptions().AddBroker("tls://" + hub.Addr).SetClientID(a.clientID).
		SetUsername(a.username).SetPassword(tok).SetProtocolVersion(4).SetAutoReconnect(false).
		SetTLSConfig(&tls.Config{RootCAs: hub.WL.CA.Pool(), ServerName: "localhost", MinVersion: tls.VersionTLS12})
	c := paho.NewClient(o)
	ct := c.Connect()
	ct.WaitTimeout(5 * time.Second)
	if ct.Error() == nil {
		t.Cleanup(func() { c.Disconnect(0) })
	}
	return c, ct.Error()
}

// TestEdgeHubDoubleAuthenticates: the double admits the module's identity
// with a valid token and refuses everything edgeHub refuses.
func TestEdgeHubDoubleAuthenticates(t *testing.T) {
	t.Parallel()
	wl := testenv.NewWorkload(t)
	hub := testenv.NewEdgeHub(t, wl)
	good := attempt{clientID: "gw1/eventgridmodule", username: "contoso.azure-devices.net/gw1/eventgridmodule/?api-version=2021-04-12",
		signer: wl.Sign, resource: "contoso.azure-devices.net/devices/gw1/modules/eventgridmodule", expiry: time.Hour}
	other := keySigner(func(b []byte) []byte { return append([]byte("not the key"), b...)[:32] })
	cases := map[string]struct {
		change  func(a *attempt)
		refused string
	}{
		"valid":                    {func(*attempt) {}, ""},
		"gateway audience":         {func(a *attempt) { a.resource = "localhost/devices/gw1/modules/eventgridmodule" }, ""},
		"wrong client id":          {func(a *attempt) { a.clientID = "gw1/other" }, "client id"},
		"username without version": {func(a *attempt) { a.username = "contoso.azure-devices.net/gw1/eventgridmodule/?x=1" }, "api-version"},
		"username for another":     {func(a *attempt) { a.username = "contoso.azure-devices.net/gw1/other/?api-version=1" }, "username"},
		"expired":                  {func(a *attempt) { a.expiry = -time.Minute }, "expired"},
		"wrong key":                {func(a *attempt) { a.signer = other }, "signature"},
		"another module":           {func(a *attempt) { a.resource = "contoso.azure-devices.net/devices/gw1/modules/x" }, "audience"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			a := good
			tc.change(&a)
			_, err := dial(t, hub, a)
			if (err == nil) != (tc.refused == "") {
				t.Fatalf("connect error %v", err)
			}
			if tc.refused == "" {
				return
			}
			for _, c := range hub.Connects() {
				if c.ClientID == a.clientID && c.Username == a.username && strings.Contains(c.Refused, tc.refused) {
					return
				}
			}
			t.Fatalf("no refusal mentioning %q in %+v", tc.refused, hub.Connects())
		})
	}
}

// TestEdgeHubDoubleTopics: subscriptions edgeHub ignores and publishes
// outside the module's events are refused and recorded.
func TestEdgeHubDoubleTopics(t *testing.T) {
	t.Parallel()
	wl := testenv.NewWorkload(t)
	hub := testenv.NewEdgeHub(t, wl)
	c, err := dial(t, hub, attempt{clientID: "gw1/eventgridmodule", username: "h/gw1/eventgridmodule/?api-version=1",
		signer: wl.Sign, resource: "contoso.azure-devices.net/devices/gw1/modules/eventgridmodule", expiry: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	st := c.SubscribeMultiple(map[string]byte{"devices/gw1/modules/eventgridmodule/inputs/#": 1,
		"devices/gw1/modules/eventgridmodule/inputs/in1": 1}, nil)
	st.WaitTimeout(5 * time.Second)
	codes := st.(*paho.SubscribeToken).Result()
	if codes["devices/gw1/modules/eventgridmodule/inputs/#"] != 1 || codes["devices/gw1/modules/eventgridmodule/inputs/in1"] != 0x80 {
		t.Fatalf("suback %v", codes)
	}
	c.Publish("devices/gw1/modules/other/messages/events/", 1, false, "{}").WaitTimeout(time.Second)
	testenv.Eventually(t, 5*time.Second, "refusals recorded", func() bool { return len(hub.Denied()) == 2 })
	d := hub.Denied()
	if d[0] != "subscribe devices/gw1/modules/eventgridmodule/inputs/in1" || d[1] != "publish devices/gw1/modules/other/messages/events/" {
		t.Fatalf("denied %q", d)
	}
	testenv.Eventually(t, 5*time.Second, "disconnected for the refused publish", func() bool { return !c.IsConnectionOpen() })
}
