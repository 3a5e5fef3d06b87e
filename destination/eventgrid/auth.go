package eventgrid

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"

	"github.com/edgegrid/edgegrid/destination"
)

// authorizer authenticates requests to the cloud for one sender.
type authorizer interface {
	// authorize sets the header that authenticates one request. An error is a
	// *tokenError: no token could be obtained.
	authorize(ctx context.Context, h http.Header) error
	// what names the secret the cloud checks, for logs: "SAS key" or
	// "Entra ID token".
	what() string
}

// sasKey sends the topic's access key, as the original module did.
type sasKey string

func (k sasKey) authorize(_ context.Context, h http.Header) error {
	h.Set("aeg-sas-key", string(k))
	return nil
}

func (sasKey) what() string { return "SAS key" }

// entraID sends a bearer token from the module's credential. GetToken is
// called per request: azidentity caches tokens in memory and refreshes them
// shortly before they expire (or when the token endpoint's refresh_in says).
type entraID struct{ cred azcore.TokenCredential }

func (e entraID) authorize(ctx context.Context, h http.Header) error {
	tok, err := e.cred.GetToken(ctx, policy.TokenRequestOptions{Scopes: []string{Scope}})
	if err != nil {
		return &tokenError{err: err}
	}
	h.Set("Authorization", "Bearer "+tok.Token)
	return nil
}

func (entraID) what() string { return "Entra ID token" }

// tokenError is a failure to obtain a token.
type tokenError struct{ err error }

func (e *tokenError) Error() string { return "no Entra ID token: " + summarize(e.err) }
func (e *tokenError) Unwrap() error { return e.err }

// result classifies a token failure. Entra ID refusing the credential (a 4xx
// other than 408 and 429: wrong secret, unknown client, expired certificate)
// is like a wrong SAS key: it will not fix itself, so the delivery is dropped.
// Anything else (token endpoint unreachable, 5xx, throttling, no managed
// identity endpoint yet) is retried.
func (e *tokenError) result() destination.Result {
	var afe *azidentity.AuthenticationFailedError
	if errors.As(e.err, &afe) && afe.RawResponse != nil {
		st := afe.RawResponse.StatusCode
		if st >= 400 && st < 500 && st != http.StatusRequestTimeout && st != http.StatusTooManyRequests {
			return destination.Result{Outcome: destination.Drop, Reason: "Unauthorized", Err: e}
		}
		r := destination.Classify(st, nil)
		return destination.Result{Outcome: destination.Retry, Reason: r.Reason, Err: e}
	}
	r := destination.Classify(0, e.err)
	r.Err = e
	return r
}

// summarize turns an azidentity error (several lines with the raw response)
// into one line: the credential, the token endpoint's status and its
// error_description's first sentence.
func summarize(err error) string {
	var afe *azidentity.AuthenticationFailedError
	if errors.As(err, &afe) && afe.RawResponse != nil {
		return fmt.Sprintf("the token endpoint answered %d: %s", afe.RawResponse.StatusCode, tokenEndpointMessage(afe.RawResponse))
	}
	return firstLine(err.Error())
}

// tokenEndpointMessage extracts the reason from an Entra ID or managed
// identity error body ({"error","error_description"}, {"error":{"message"}}
// or {"message"}).
func tokenEndpointMessage(resp *http.Response) string {
	body, err := runtime.Payload(resp)
	if err != nil || len(body) == 0 {
		return http.StatusText(resp.StatusCode)
	}
	var e struct {
		Error       json.RawMessage `json:"error"`
		Description string          `json:"error_description"`
		Message     string          `json:"message"`
	}
	if json.Unmarshal(body, &e) != nil {
		return firstLine(string(body))
	}
	var code string
	var nested struct{ Code, Message string }
	if json.Unmarshal(e.Error, &code) != nil && json.Unmarshal(e.Error, &nested) == nil {
		code, e.Message = nested.Code, nested.Message
	}
	// The code is a JSON string too: a body may put a line break in it.
	code = strings.Join(strings.Fields(code), " ")
	msg := firstLine(code + ": " + firstLine(e.Description+e.Message))
	return strings.Trim(msg, ": ")
}

// maxSummary bounds one-line error texts in logs.
const maxSummary = 300

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	s = strings.TrimSpace(s)
	if len(s) > maxSummary {
		n := maxSummary
		for n > 0 && !utf8.RuneStart(s[n]) {
			n-- // do not cut a character in two
		}
		s = s[:n] + "…"
	}
	return s
}
