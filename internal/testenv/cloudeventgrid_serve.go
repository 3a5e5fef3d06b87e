package testenv

import (
	"crypto/subtle"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// cloudError is the cloud's error answer: status, code, message.
type cloudError struct {
	status        int
	code, message string
}

// ServeHTTP checks, records and answers one request.
func (c *CloudEventGrid) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := CloudRequest{Header: r.Header.Clone(), Query: r.URL.RawQuery, At: time.Now()}
	if !c.holdIfHung(r) {
		return
	}
	e := c.check(r, &rec)
	rec.Status, rec.Reason = http.StatusOK, ""
	if e != nil {
		rec.Status, rec.Reason = e.status, e.message
	}
	c.mu.Lock()
	c.reqs = append(c.reqs, rec)
	c.mu.Unlock()
	if e == nil {
		w.WriteHeader(http.StatusOK)
		return
	}
	if e.status == http.StatusTooManyRequests || e.status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	writeJSON(w, e.status, map[string]any{"error": map[string]any{"code": e.code, "message": e.message}})
}

// holdIfHung blocks while the double is hung; false if the client gave up.
func (c *CloudEventGrid) holdIfHung(r *http.Request) bool {
	c.mu.Lock()
	hung, ch := c.hung, c.hang
	if hung {
		c.held++
	}
	c.mu.Unlock()
	if !hung {
		return true
	}
	select {
	case <-ch:
		return true
	case <-r.Context().Done():
		return false
	}
}

// check applies the endpoint's rules in the cloud's order: route and
// api-version, authentication, then size, content type and body.
func (c *CloudEventGrid) check(r *http.Request, rec *CloudRequest) *cloudError {
	switch {
	case r.URL.Path != "/api/events":
		return &cloudError{http.StatusNotFound, "NotFound", "The requested resource '" + r.URL.Path + "' was not found."}
	case r.Method != http.MethodPost:
		return &cloudError{http.StatusMethodNotAllowed, "MethodNotAllowed", "Only POST is supported."}
	case r.URL.Query().Get("api-version") != "2018-01-01":
		return &cloudError{http.StatusBadRequest, "BadRequest", "The api-version '" + r.URL.Query().Get("api-version") + "' is invalid. The supported versions are '2018-01-01'."}
	}
	if e := c.authenticate(r, rec); e != nil {
		return e
	}
	if e := c.scripted(); e != nil {
		return e
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, CloudMaxRequestBytes+1))
	rec.Body = body
	switch {
	case err != nil:
		return &cloudError{http.StatusBadRequest, "BadRequest", "The request body could not be read: " + err.Error()}
	case len(body) > CloudMaxRequestBytes || r.ContentLength > CloudMaxRequestBytes:
		return &cloudError{http.StatusRequestEntityTooLarge, "PayloadTooLarge", "The maximum size (" + strconv.Itoa(CloudMaxRequestBytes) + ") has been exceeded."}
	}
	if e := c.checkContentType(r.Header.Get("Content-Type")); e != nil {
		return e
	}
	return checkBody(c.opts.Schema, body)
}

// authenticate accepts the topic key or a valid bearer token.
func (c *CloudEventGrid) authenticate(r *http.Request, rec *CloudRequest) *cloudError {
	host := r.Host
	if key := r.Header.Get("aeg-sas-key"); key != "" {
		if c.opts.Key == "" || subtle.ConstantTimeCompare([]byte(key), []byte(c.opts.Key)) != 1 {
			return &cloudError{http.StatusUnauthorized, "Unauthorized", "The request authorization key is not authorized for " + host + ". This is due to the reason: The key is invalid."}
		}
		rec.Auth = "sas"
		return nil
	}
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || tok == "" {
		return &cloudError{http.StatusUnauthorized, "Unauthorized", "Request must contain one of the 'aeg-sas-token', 'aeg-sas-key' or 'Authorization' header."}
	}
	if c.opts.Tokens == nil {
		return &cloudError{http.StatusUnauthorized, "Unauthorized", "Entra ID authentication is not enabled for " + host + "."}
	}
	it, err := c.opts.Tokens.Check(tok)
	if err != nil {
		return &cloudError{http.StatusUnauthorized, "Unauthorized", "The provided bearer token is not valid: " + err.Error() + "."}
	}
	c.mu.Lock()
	denied := c.denied[it.ClientID]
	c.mu.Unlock()
	if denied {
		return &cloudError{http.StatusForbidden, "Forbidden", "The principal '" + it.ClientID + "' does not have the required EventGrid Data Sender role on " + host + "."}
	}
	rec.Auth, rec.Token = "bearer", it
	return nil
}

// scripted pops the next scripted status, if any.
func (c *CloudEventGrid) scripted() *cloudError {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.script) == 0 {
		return nil
	}
	st := c.script[0]
	c.script = c.script[1:]
	if st == http.StatusOK {
		return nil // normal service for this request
	}
	return &cloudError{st, strings.ReplaceAll(http.StatusText(st), " ", ""), "Scripted answer " + strconv.Itoa(st) + " " + http.StatusText(st) + "."}
}

// checkContentType: the Event Grid and custom schemas take application/json;
// CloudEvents topics take the batched format.
func (c *CloudEventGrid) checkContentType(ct string) *cloudError {
	mt, params, err := mime.ParseMediaType(ct)
	want := "application/json"
	if c.opts.Schema == CloudCloudEventsSchema {
		want = "application/cloudevents-batch+json"
	}
	if err != nil || mt != want || (params["charset"] != "" && !strings.EqualFold(params["charset"], "utf-8")) {
		return &cloudError{http.StatusBadRequest, "BadRequest", "Content-Type '" + ct + "' is not supported for a topic with input schema " + c.opts.Schema + "; use " + want + "."}
	}
	return nil
}
