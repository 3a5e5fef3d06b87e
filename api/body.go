package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
)

// bufferPool recycles request body buffers; parsers copy what they keep.
type bufferPool struct{ p sync.Pool }

func (bp *bufferPool) get() *bytes.Buffer {
	if b, ok := bp.p.Get().(*bytes.Buffer); ok {
		b.Reset()
		return b
	}
	return new(bytes.Buffer)
}

func (bp *bufferPool) put(b *bytes.Buffer) {
	if b.Cap() <= 2*DefaultMaxBodyBytes {
		bp.p.Put(b)
	}
}

// readBody reads the whole body into buf, refusing more than s.max bytes.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, buf *bytes.Buffer) error {
	if r.ContentLength > s.max {
		return tooLarge(s.max)
	}
	if r.ContentLength > 0 {
		buf.Grow(int(r.ContentLength))
	}
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, s.max))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return tooLarge(s.max)
	case err != nil && !errors.Is(err, io.EOF):
		return apiError(400, "InvalidRequestBody", "The request body could not be read.")
	}
	return nil
}

func tooLarge(max int64) *Error {
	return apiError(413, "PayloadTooLarge", fmt.Sprintf("The request body is larger than the limit of %d bytes.", max))
}

// mediaType returns the request's media type, lower-cased ("" when absent).
func mediaType(r *http.Request) string {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return ""
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(strings.SplitN(ct, ";", 2)[0]))
	}
	return mt
}

// requireJSON accepts application/json (any parameters) or no Content-Type.
func requireJSON(r *http.Request) error {
	switch mediaType(r) {
	case "", "application/json", "text/json":
		return nil
	}
	return unsupportedMedia(r, "application/json")
}

func unsupportedMedia(r *http.Request, accepted string) *Error {
	return apiError(415, "UnsupportedMediaType",
		fmt.Sprintf("Content-Type '%s' is not supported here; use %s.", r.Header.Get("Content-Type"), accepted))
}
