package edgehub_test

import (
	"context"
	"encoding/base64"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/edgehub"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
	"github.com/edgegrid/edgegrid/workload"
)

// TestTokenFormat: the token is exactly the documented module SAS token, with
// the signature the workload API computes over the encoded resource and expiry.
func TestTokenFormat(t *testing.T) {
	t.Parallel()
	wl := testenv.NewWorkload(t)
	wc, err := workload.New(workload.Options{URI: wl.URI, ModuleID: wl.ModuleID, GenerationID: wl.GenerationID})
	if err != nil {
		t.Fatal(err)
	}
	id := edgehub.Identity{HubHostname: "contoso.azure-devices.net", Gateway: "gw", DeviceID: "gw1", ModuleID: "eventgridmodule"}
	exp := time.Unix(1767323045, 0)
	tok, err := edgehub.Token(context.Background(), wc, id.Resource(), exp)
	if err != nil {
		t.Fatal(err)
	}
	sr := "contoso.azure-devices.net%2Fdevices%2Fgw1%2Fmodules%2Feventgridmodule"
	sig := base64.StdEncoding.EncodeToString(wl.Sign([]byte(sr + "\n" + strconv.FormatInt(exp.Unix(), 10))))
	want := "SharedAccessSignature sr=" + sr + "&sig=" + url.QueryEscape(sig) + "&se=1767323045"
	if tok != want {
		t.Fatalf("token\n%s\nwant\n%s", tok, want)
	}
	wl.FailNext(403)
	if _, err := edgehub.Token(context.Background(), wc, id.Resource(), exp); err == nil {
		t.Fatal("a refused signature must fail the token")
	}
}

func TestIdentityStrings(t *testing.T) {
	id := edgehub.Identity{HubHostname: "contoso.azure-devices.net", Gateway: "gw", DeviceID: "gw1", ModuleID: "eventgridmodule"}
	for got, want := range map[string]string{
		id.ClientID():             "gw1/eventgridmodule",
		id.Username("edgegrid/1"): "contoso.azure-devices.net/gw1/eventgridmodule/?api-version=2021-04-12&DeviceClientType=edgegrid%2F1",
		id.InputsFilter():         "devices/gw1/modules/eventgridmodule/inputs/#",
		id.OutputTopic("sub 4"):   "devices/gw1/modules/eventgridmodule/messages/events/%24.on=sub+4&%24.ct=application%2Fjson&%24.ce=utf-8",
	} {
		if got != want {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
}

// TestTokenRenewal: the first connection's token expires an hour after it was
// signed; at 80 % of that the client reconnects with a freshly signed token,
// which edgeHub accepts.
func TestTokenRenewal(t *testing.T) {
	t.Parallel()
	clock := testenv.NewManualClock()
	e := newEnv(t, envOptions{clock: clock})
	t0 := clock.Now()
	first := e.hub.Connects()
	if len(first) != 1 || first[0].Refused != "" || !first[0].Expiry.Equal(t0.Add(time.Hour).Truncate(time.Second)) {
		t.Fatalf("first connection %+v (now %v)", first, t0)
	}
	clock.Advance(47 * time.Minute)
	testenv.Never(t, 200*time.Millisecond, "reconnect before 80 % of the token lifetime", func() bool { return len(e.hub.Connects()) > 1 })
	clock.Advance(time.Minute)
	testenv.Eventually(t, 10*time.Second, "renewed connection", func() bool {
		return len(e.hub.Connects()) >= 2 && e.c.Stats().Connects == 2
	})
	second := e.hub.Connects()[1]
	if second.Refused != "" || !second.Expiry.Equal(t0.Add(48*time.Minute+time.Hour).Truncate(time.Second)) {
		t.Fatalf("renewed connection %+v", second)
	}
	e.noDenials(t)
}

// TestReconnectAfterRestart: edgeHub restarts; the client reconnects on its
// own, subscribes and fetches the twin again, and outputs flow again.
func TestReconnectAfterRestart(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	gets := e.hub.TwinGets()
	e.hub.Restart(t)
	testenv.Eventually(t, 15*time.Second, "reconnected and twin fetched again", func() bool {
		return e.c.Connected() && e.hub.TwinGets() > gets
	})
	e.topic(t, "t")
	e.subscribe(t, "t", "s", edgeHubOutput("out"))
	if _, err := e.b.PublishJSON("t", []byte(event), eventschema.ShapeAny); err != nil {
		t.Fatal(err)
	}
	e.hub.WaitOutputs(t, 1, 10*time.Second)
	if err := e.hub.SendInput("t", []byte(event)); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 10*time.Second, "input acknowledged after the restart", func() bool { return e.hub.AckedInputs() == 1 })
	e.noDenials(t)
}
