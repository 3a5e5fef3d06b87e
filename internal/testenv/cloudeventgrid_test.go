package testenv_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/messaging"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"

	"github.com/edgegrid/edgegrid/internal/testenv"
)

// The doubles are checked against the Azure SDK for Go itself: what its
// publisher client sends must be accepted, what it gets wrong refused.

func sdkOptions(ca *testenv.CA) *azeventgrid.ClientOptions {
	return &azeventgrid.ClientOptions{ClientOptions: azcore.ClientOptions{
		Transport: &http.Client{Transport: &http.Transport{TLSClientConfig: testenv.ClientTLS(ca)}},
		Retry:     azcoreNoRetry}}
}

func sdkEvent(id string) azeventgrid.Event {
	return azeventgrid.Event{ID: to.Ptr(id), Subject: to.Ptr("s"), EventType: to.Ptr("t"), DataVersion: to.Ptr("1.0"),
		EventTime: to.Ptr(time.Now()), Data: map[string]any{"k": 1}}
}

func TestCloudDoubleAcceptsTheSDKWithKey(t *testing.T) {
	ca := testenv.NewCA(t, "cloud")
	c := testenv.NewCloudEventGrid(t, ca, testenv.CloudOptions{Key: "KEY"})
	endpoint := c.Server.URL + "/api/events"
	client, err := azeventgrid.NewClientWithSharedKeyCredential(endpoint, azcore.NewKeyCredential("KEY"), sdkOptions(ca))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.PublishEvents(context.Background(), []azeventgrid.Event{sdkEvent("1"), sdkEvent("2")}, nil); err != nil {
		t.Fatal(err)
	}
	bad, _ := azeventgrid.NewClientWithSharedKeyCredential(endpoint, azcore.NewKeyCredential("WRONG"), sdkOptions(ca))
	_, err = bad.PublishEvents(context.Background(), []azeventgrid.Event{sdkEvent("3")}, nil)
	var re *azcore.ResponseError
	if !errors.As(err, &re) || re.StatusCode != 401 || re.ErrorCode != "Unauthorized" {
		t.Fatalf("wrong key: %v", err)
	}
	reqs := c.Requests()
	if len(reqs) != 2 || reqs[0].Auth != "sas" || len(c.Events()) != 2 || reqs[1].Status != 401 {
		t.Fatalf("recorded %+v", reqs)
	}
}

func TestCloudDoubleAcceptsTheSDKWithEntraToken(t *testing.T) {
	ca := testenv.NewCA(t, "cloud")
	tokens := testenv.NewTokens()
	entra := testenv.NewEntra(t, ca, tokens, "tenant1", "app1")
	entra.SetSecret("s3cret")
	c := testenv.NewCloudEventGrid(t, ca, testenv.CloudOptions{Tokens: tokens, Schema: testenv.CloudCloudEventsSchema})
	cred, err := azidentity.NewClientSecretCredential("tenant1", "app1", "s3cret", &azidentity.ClientSecretCredentialOptions{
		ClientOptions:            azcore.ClientOptions{Cloud: cloud.Configuration{ActiveDirectoryAuthorityHost: entra.Authority}, Transport: entra.Client()},
		DisableInstanceDiscovery: true})
	if err != nil {
		t.Fatal(err)
	}
	client, err := azeventgrid.NewClient(c.Server.URL+"/api/events", cred, sdkOptions(ca))
	if err != nil {
		t.Fatal(err)
	}
	ev, _ := messaging.NewCloudEvent("/edge/source", "type.A", map[string]any{"a": 1}, nil)
	if _, err := client.PublishCloudEvents(context.Background(), []messaging.CloudEvent{ev}, nil); err != nil {
		t.Fatal(err)
	}
	r := c.Requests()[0]
	if r.Auth != "bearer" || r.Token.Via != "secret" || r.Token.ClientID != "app1" || len(tokens.Issued()) != 1 {
		t.Fatalf("recorded %+v", r)
	}
	c.Deny("app1")
	_, err = client.PublishCloudEvents(context.Background(), []messaging.CloudEvent{ev}, nil)
	var re *azcore.ResponseError
	if !errors.As(err, &re) || re.StatusCode != 403 {
		t.Fatalf("denied principal: %v", err)
	}
}

func TestEntraDoubleRefusesWrongSecretAndCertificate(t *testing.T) {
	ca := testenv.NewCA(t, "entra")
	entra := testenv.NewEntra(t, ca, testenv.NewTokens(), "tenant1", "app1")
	entra.SetSecret("right")
	registered := testenv.NewAppCertificate(t, "app1")
	entra.SetCertificate(registered.Cert)
	opts := azcore.ClientOptions{Cloud: cloud.Configuration{ActiveDirectoryAuthorityHost: entra.Authority}, Transport: entra.Client(), Retry: azcoreNoRetry}
	secret, _ := azidentity.NewClientSecretCredential("tenant1", "app1", "wrong", &azidentity.ClientSecretCredentialOptions{ClientOptions: opts, DisableInstanceDiscovery: true})
	tokenStatus := func(cred azcore.TokenCredential) int {
		_, err := cred.GetToken(context.Background(), tokenRequest)
		var afe *azidentity.AuthenticationFailedError
		if err == nil {
			return 200
		}
		if errors.As(err, &afe) && afe.RawResponse != nil {
			return afe.RawResponse.StatusCode
		}
		t.Fatalf("unexpected error %v", err)
		return 0
	}
	if st := tokenStatus(secret); st != 401 {
		t.Fatalf("wrong secret: %d", st)
	}
	for name, c := range map[string]*testenv.AppCertificate{"registered": registered, "other": testenv.NewAppCertificate(t, "other")} {
		certs, key, err := azidentity.ParseCertificates(c.PEM, nil)
		if err != nil {
			t.Fatal(err)
		}
		cred, _ := azidentity.NewClientCertificateCredential("tenant1", "app1", certs, key, &azidentity.ClientCertificateCredentialOptions{ClientOptions: opts, DisableInstanceDiscovery: true})
		if st, want := tokenStatus(cred), map[bool]int{true: 200, false: 401}[name == "registered"]; st != want {
			t.Fatalf("%s certificate: %d, want %d", name, st, want)
		}
	}
	form := entra.TokenRequests()[len(entra.TokenRequests())-1]
	if !strings.Contains(form["client_assertion_type"][0], "jwt-bearer") {
		t.Fatalf("last form %v", form)
	}
}
