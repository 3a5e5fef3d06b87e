package eventgrid

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/edgegrid/edgegrid/destination"
)

// maxDrain bounds how much of a response body is read.
const maxDrain = 64 << 10

// cloudMessage reads the cloud's error body
// ({"error":{"code":"…","message":"…"}}) and returns its message.
func cloudMessage(body io.Reader) string {
	raw, _ := io.ReadAll(io.LimitReader(body, maxDrain))
	var e struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	if json.Unmarshal(raw, &e) == nil && e.Error.Message != "" {
		return firstLine(e.Error.Message)
	}
	return firstLine(string(raw))
}

// report logs, once until a delivery succeeds again, that the cloud or Entra
// ID refuses this subscription's credentials: such deliveries are dropped
// (401 and 403 are never retried), so without this line the only trace would
// be one "event dropped" line per event. The secret itself is never logged.
func (s *Sender) report(d *destination.Delivery, res destination.Result, cause string) {
	if res.Outcome == destination.Delivered {
		s.refused.Store(false)
		return
	}
	te, tokenFailed := res.Err.(*tokenError)
	if !tokenFailed && res.Status != http.StatusUnauthorized && res.Status != http.StatusForbidden {
		return
	}
	if !s.refused.CompareAndSwap(false, true) {
		return
	}
	ev := s.f.opts.Logger.Error().Str("topic", d.Topic).Str("subscription", d.Subscription).Str("endpoint", s.url)
	if e, ok := s.auth.(entraID); ok && e.cred != nil {
		ev = ev.Str("credential", s.f.opts.CredentialName)
	}
	if tokenFailed {
		ev.Str("outcome", res.Outcome.String()).
			Msgf("could not get an Entra ID token for subscription %s: %s (%s)", d.Subscription, summarize(te.err), tokenHint(res))
		return
	}
	ev.Int("status", res.Status).Str("cause", cause).
		Msgf("cloud Event Grid refused the %s of subscription %s: %s: %s; its events are dropped, not retried (%s)",
			s.auth.what(), d.Subscription, res.String(), strings.TrimSuffix(cause, "."), s.hint(res.Status))
}

// hint says what to fix; logged with the refusal.
func (s *Sender) hint(status int) string {
	_, entra := s.auth.(entraID)
	switch {
	case entra && status == http.StatusForbidden:
		return "grant the identity the EventGrid Data Sender role on the topic"
	case entra:
		return "check that the credential's tenant owns the topic and the token is for " + Scope
	case status == http.StatusForbidden:
		return "the topic may refuse key authentication (disableLocalAuth); use Entra ID"
	}
	return "PUT the subscription again with the topic's current key"
}

func tokenHint(res destination.Result) string {
	if res.Outcome == destination.Drop {
		return "Entra ID refuses the credential, so events are dropped; fix the AZURE_* settings and restart"
	}
	return "will retry"
}
