package auth_test

import (
	"context"
	"crypto/x509"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/messaging"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"

	"github.com/edgegrid/edgegrid/auth"
	"github.com/edgegrid/edgegrid/internal/testenv"
)

// TestBothMechanisms: SAS first, then the certificate; one success suffices,
// and a refusal explains both.
func TestBothMechanisms(t *testing.T) {
	ca := testenv.NewCA(t, "Edge CA")
	s := newServer(t, auth.Options{SASKeys: true, Key1: key1, ClientCert: true,
		TrustBundle: func() *x509.CertPool { return ca.Pool() }})
	good, _, _ := ca.Issue(t, testenv.LeafOptions{CommonName: "module", Client: true})
	cases := map[string]struct {
		cert    bool
		headers []string
		msg     string
	}{
		"key, no certificate":         {false, []string{"aeg-sas-key", key1}, ""},
		"wrong key, good certificate": {true, []string{"aeg-sas-key", otherKey}, ""},
		"certificate only":            {true, nil, ""},
		"wrong key, no certificate": {false, []string{"aeg-sas-key", otherKey},
			`^The aeg-sas-key header matches no configured key, and no client certificate was presented\.$`},
		"nothing": {false, nil, `^No SAS key .* was presented, and no client certificate was presented\.$`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := s.client(nil)
			if tc.cert {
				c = s.client(&good)
			}
			r := do(t, c, "GET", s.https+"/topics"+q, tc.headers...)
			if tc.msg == "" {
				if r.status != 200 {
					t.Fatalf("got %d %s", r.status, r.body)
				}
				return
			}
			want401(t, r, tc.msg, otherKey)
		})
	}
}

// TestAzureSDK publishes with the Azure SDK for Go's key and SAS
// credentials, unchanged, to a topic of the module.
func TestAzureSDK(t *testing.T) {
	s := newServer(t, auth.Options{SASKeys: true, Key1: key1, Key2: key2})
	endpoint := s.https + "/topics/t/events"
	opts := &azeventgrid.ClientOptions{ClientOptions: azcore.ClientOptions{
		Transport: s.client(nil), Retry: policy.RetryOptions{MaxRetries: -1}}}
	events := []messaging.CloudEvent{{ID: "1", Source: "sdk", Type: "t", SpecVersion: "1.0", Time: ptr(time.Now())}}
	ctx := context.Background()

	keyClient, err := azeventgrid.NewClientWithSharedKeyCredential(endpoint, azcore.NewKeyCredential(key2), opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := keyClient.PublishCloudEvents(ctx, events, nil); err != nil {
		t.Fatalf("key credential: %v", err)
	}
	sas := sdkToken(endpoint, key1, time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
	sasClient, err := azeventgrid.NewClientWithSAS(endpoint, azcore.NewSASCredential(sas), opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sasClient.PublishCloudEvents(ctx, events, nil); err != nil {
		t.Fatalf("SAS credential: %v", err)
	}
	wrong, _ := azeventgrid.NewClientWithSharedKeyCredential(endpoint, azcore.NewKeyCredential(otherKey), opts)
	_, err = wrong.PublishCloudEvents(ctx, events, nil)
	var re *azcore.ResponseError
	if !errors.As(err, &re) || re.StatusCode != http.StatusUnauthorized || re.ErrorCode != "Unauthorized" {
		t.Fatalf("wrong key: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }
