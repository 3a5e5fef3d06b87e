package workload

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// call sends one request with the retry rules of the package doc and decodes a
// JSON answer into out.
func (c *Client) call(ctx context.Context, method, path string, in, out any) error {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return err
		}
	}
	version := c.apiVersion
	wait := c.backoff
	var last error
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		status, data, err := c.once(ctx, method, path, version, body)
		switch {
		case err == nil && status < 300:
			if out == nil {
				return nil
			}
			return json.Unmarshal(data, out)
		case err == nil && status == http.StatusBadRequest && strings.Contains(string(data), "api-version") && version != OldestAPIVersion:
			version = OldestAPIVersion // an older runtime: try the version every route accepts
			continue
		case err == nil && status < 500:
			return &StatusError{Status: status, Message: errorMessage(data)}
		case err == nil:
			last = &StatusError{Status: status, Message: errorMessage(data)}
		default:
			last = err
		}
		if ctx.Err() != nil || attempt == maxAttempts {
			break
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return ctx.Err()
		}
		wait = min(2*wait, 30*time.Second)
	}
	return last
}

func (c *Client) once(ctx context.Context, method, path, version string, body []byte) (int, []byte, error) {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return 0, nil, ctx.Err()
	}
	defer func() { <-c.sem }()
	u := c.base + path + "?api-version=" + url.QueryEscape(version)
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, nil, err
	}
	return resp.StatusCode, data, nil
}

// errorMessage extracts {"message": "..."} or returns the raw text.
func errorMessage(data []byte) string {
	var e struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(data, &e) == nil && e.Message != "" {
		return e.Message
	}
	return strings.TrimSpace(string(data))
}
