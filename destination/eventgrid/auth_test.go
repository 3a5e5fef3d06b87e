package eventgrid_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/destination/eventgrid"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

// TestSASKeyRefusedLoggedOnce: a wrong key drops every delivery (401 is not
// retried) but is logged once, with the cloud's reason and never the key;
// after a success the next refusal is logged again.
func TestSASKeyRefusedLoggedOnce(t *testing.T) {
	r := newRig(t, testenv.CloudOptions{Key: "RIGHT-KEY-0123"}, eventgrid.Options{})
	wrong := r.sender(t, withKey("WRONG-KEY-4567"))
	for range 5 {
		if res := deliver(wrong, eventschema.EventGrid, egEvents(t, 1, 1)); res.Outcome != destination.Drop || res.Reason != "Unauthorized" {
			t.Fatalf("result %+v", res)
		}
	}
	const line = "cloud Event Grid refused the SAS key of subscription sub1: 401 Unauthorized: The request authorization key is not authorized"
	if n := r.log.count(line); n != 1 {
		t.Fatalf("%d refusal lines, want 1:\n%s", n, r.log)
	}
	right := r.sender(t, withKey("RIGHT-KEY-0123")) // the subscription PUT again with the right key
	r.cloud.Script(401, 401)
	deliver(right, eventschema.EventGrid, egEvents(t, 1, 1))
	deliver(right, eventschema.EventGrid, egEvents(t, 1, 1))
	if res := deliver(right, eventschema.EventGrid, egEvents(t, 1, 1)); res.Outcome != destination.Delivered {
		t.Fatalf("result %+v", res)
	}
	r.cloud.Script(401)
	deliver(right, eventschema.EventGrid, egEvents(t, 1, 1))
	if n := r.log.count("refused the SAS key of subscription sub1"); n != 3 {
		t.Fatalf("%d refusal lines, want 1 + 1 + 1 after the success:\n%s", n, r.log)
	}
	if logs := r.log.String(); strings.Contains(logs, "KEY-4567") || strings.Contains(logs, "KEY-0123") {
		t.Fatalf("a key was logged:\n%s", logs)
	}
}

// entraRig is a cloud double trusting tokens of a local Entra ID tenant,
// and a factory whose credential is a client secret there.
func entraRig(t *testing.T, lifetime time.Duration) (*rig, *testenv.Entra) {
	t.Helper()
	tokens := testenv.NewTokens()
	entra := testenv.NewEntra(t, testenv.NewCA(t, "entra"), tokens, "tenant1", "app1")
	entra.SetSecret("s3cret-value")
	entra.SetLifetime(lifetime)
	cc := eventgrid.CredentialConfig{Kind: eventgrid.CredentialSecret, TenantID: "tenant1", ClientID: "app1",
		ClientSecret: "s3cret-value", AuthorityHost: entra.Authority, DisableInstanceDiscovery: true, Transport: entra.Client()}
	return credentialRig(t, tokens, cc), entra
}

func credentialRig(t *testing.T, tokens *testenv.Tokens, cc eventgrid.CredentialConfig) *rig {
	t.Helper()
	cred, err := eventgrid.NewCredential(cc)
	if err != nil {
		t.Fatal(err)
	}
	return newRig(t, testenv.CloudOptions{Tokens: tokens}, eventgrid.Options{Credential: cred, CredentialName: cc.Describe()})
}

// TestEntraTokenSentAndCached: a subscription without a key gets a bearer
// token from the token endpoint once, then from the credential's cache.
func TestEntraTokenSentAndCached(t *testing.T) {
	r, entra := entraRig(t, time.Hour)
	s := r.sender(t, nil)
	for range 3 {
		if res := deliver(s, eventschema.EventGrid, egEvents(t, 1, 1)); res.Outcome != destination.Delivered {
			t.Fatalf("result %+v", res)
		}
	}
	reqs := entra.TokenRequests()
	if len(reqs) != 1 || !slices.Contains(strings.Fields(reqs[0]["scope"][0]), eventgrid.Scope) || reqs[0]["client_id"][0] != "app1" {
		t.Fatalf("token requests %v", reqs)
	}
	for _, q := range r.cloud.Requests() {
		if q.Status != 200 || q.Auth != "bearer" || q.Token.Via != "secret" || q.Header.Get("aeg-sas-key") != "" {
			t.Fatalf("cloud request %+v", q)
		}
	}
}

// TestEntraTokenRefreshed: tokens that expire within five minutes are
// refreshed before use, so each request carries a new, unexpired token.
func TestEntraTokenRefreshed(t *testing.T) {
	r, entra := entraRig(t, 2*time.Minute)
	s := r.sender(t, func(ep *destination.Endpoint) { ep.Authentication = destination.AuthEntraID })
	for range 3 {
		if res := deliver(s, eventschema.EventGrid, egEvents(t, 1, 1)); res.Outcome != destination.Delivered {
			t.Fatalf("result %+v", res)
		}
	}
	seen := map[string]bool{}
	for _, q := range r.cloud.Requests() {
		seen[q.Token.Token] = true
	}
	if len(entra.TokenRequests()) != 3 || len(seen) != 3 {
		t.Fatalf("%d token requests, %d distinct tokens used; want 3 and 3", len(entra.TokenRequests()), len(seen))
	}
}

// TestEntraTokenRefreshedProactively: a token whose refresh_in has passed
// is replaced before use although it is still valid for an hour.
func TestEntraTokenRefreshedProactively(t *testing.T) {
	r, entra := entraRig(t, time.Hour)
	entra.SetRefreshIn(0) // refresh due at once
	s := r.sender(t, nil)
	for range 3 {
		if res := deliver(s, eventschema.EventGrid, egEvents(t, 1, 1)); res.Outcome != destination.Delivered {
			t.Fatalf("result %+v", res)
		}
	}
	if n := len(entra.TokenRequests()); n != 3 {
		t.Fatalf("%d token requests, want 3", n)
	}
}

// TestEntraTokenRefusedByCloud: the cloud answering 401 to a token drops the
// delivery and is logged once; 403 (no data sender role) says what to grant.
func TestEntraTokenRefusedByCloud(t *testing.T) {
	r, _ := entraRig(t, time.Hour)
	s := r.sender(t, nil)
	if res := deliver(s, eventschema.EventGrid, egEvents(t, 1, 1)); res.Outcome != destination.Delivered {
		t.Fatalf("result %+v", res)
	}
	r.cloud.Script(401, 401, 401)
	for range 3 {
		if res := deliver(s, eventschema.EventGrid, egEvents(t, 1, 1)); res.Outcome != destination.Drop || res.Status != 401 {
			t.Fatalf("result %+v", res)
		}
	}
	if n := r.log.count("cloud Event Grid refused the Entra ID token of subscription sub1: 401 Unauthorized"); n != 1 {
		t.Fatalf("%d lines, want 1:\n%s", n, r.log)
	}
	r.cloud.Deny("app1")
	s2 := r.sender(t, nil)
	if res := deliver(s2, eventschema.EventGrid, egEvents(t, 1, 1)); res.Outcome != destination.Drop || res.Status != 403 {
		t.Fatalf("result %+v", res)
	}
	if !strings.Contains(r.log.String(), "EventGrid Data Sender role") || !strings.Contains(r.log.String(), `"credential":"secret (AZURE_CLIENT_ID=app1`) {
		t.Fatalf("403 hint missing:\n%s", r.log)
	}
}

// TestEntraRevokedToken: a token the cloud no longer accepts is refused
// (401), whatever the credential's cache says.
func TestEntraRevokedToken(t *testing.T) {
	r, entra := entraRig(t, time.Hour)
	s := r.sender(t, nil)
	deliver(s, eventschema.EventGrid, egEvents(t, 1, 1))
	entra.Tokens.Revoke()
	res := deliver(s, eventschema.EventGrid, egEvents(t, 1, 1))
	if res.Outcome != destination.Drop || res.Status != 401 || !strings.Contains(r.log.String(), "revoked") {
		t.Fatalf("result %+v; log:\n%s", res, r.log)
	}
}

// TestEntraCredentialRefused: Entra ID refusing the secret drops the delivery
// without calling the cloud, logged once, without the secret.
func TestEntraCredentialRefused(t *testing.T) {
	r, entra := entraRig(t, time.Hour)
	entra.SetSecret("rotated")
	s := r.sender(t, nil)
	for range 3 {
		res := deliver(s, eventschema.EventGrid, egEvents(t, 1, 1))
		if res.Outcome != destination.Drop || res.Reason != "Unauthorized" || !strings.Contains(res.Err.Error(), "AADSTS7000215") {
			t.Fatalf("result %+v", res)
		}
	}
	if len(r.cloud.Requests()) != 0 {
		t.Fatal("the cloud was called without a token")
	}
	if n := r.log.count("could not get an Entra ID token for subscription sub1: the token endpoint answered 401: invalid_client: AADSTS7000215"); n != 1 {
		t.Fatalf("%d lines, want 1:\n%s", n, r.log)
	}
	if strings.Contains(r.log.String(), "s3cret-value") {
		t.Fatal("the secret was logged")
	}
}

// TestEntraTokenEndpointUnavailable: a token endpoint that keeps failing is a
// transient problem: retried, not dropped.
func TestEntraTokenEndpointUnavailable(t *testing.T) {
	tokens := testenv.NewTokens()
	entra := testenv.NewEntra(t, testenv.NewCA(t, "entra"), tokens, "tenant1", "app1")
	entra.SetSecret("s")
	entra.Script(503, 503, 503, 503, 503, 503)
	cred, err := eventgrid.NewCredential(eventgrid.CredentialConfig{Kind: eventgrid.CredentialSecret, TenantID: "tenant1", ClientID: "app1",
		ClientSecret: "s", AuthorityHost: entra.Authority, DisableInstanceDiscovery: true, Transport: entra.Client()})
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, testenv.CloudOptions{Tokens: tokens}, eventgrid.Options{Credential: cred, Timeout: 300 * time.Millisecond})
	res := deliver(r.sender(t, nil), eventschema.EventGrid, egEvents(t, 1, 1))
	if res.Outcome != destination.Retry || len(r.cloud.Requests()) != 0 || !strings.Contains(r.log.String(), "will retry") {
		t.Fatalf("result %+v; log:\n%s", res, r.log)
	}
}
