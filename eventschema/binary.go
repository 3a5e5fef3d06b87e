package eventschema

import (
	"encoding/base64"
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"unicode/utf8"
)

// IsBinaryCloudEvent reports whether a request uses the CloudEvents HTTP binary
// content mode (attributes in ce-* headers).
func IsBinaryCloudEvent(h http.Header) bool { return h.Get("ce-specversion") != "" }

// ParseBinaryCloudEvent builds one structured CloudEvent from a binary-mode HTTP
// request: ce-* headers become attributes, Content-Type becomes datacontenttype,
// and the body becomes data (JSON media types), a JSON string (text/*) or
// data_base64 (anything else). The result is validated like a structured event.
func ParseBinaryCloudEvent(h http.Header, body []byte, o Options) (*Event, error) {
	obj := map[string]json.RawMessage{}
	for name, vals := range h {
		lower := strings.ToLower(name)
		if !strings.HasPrefix(lower, "ce-") || len(vals) == 0 || len(lower) == 3 {
			continue
		}
		v, err := url.PathUnescape(vals[0])
		if err != nil {
			v = vals[0]
		}
		obj[lower[3:]] = mustJSON(v)
	}
	ct := h.Get("Content-Type")
	if ct != "" {
		obj["datacontenttype"] = mustJSON(ct)
	}
	if len(body) > 0 {
		if err := putBinaryData(obj, ct, body); err != nil {
			return nil, err
		}
	}
	raw := encodeObject(obj)
	evs, err := Parse(CloudEvents, raw, Options{Topic: o.Topic, Shape: ShapeObject, MaxEventSize: o.MaxEventSize})
	if err != nil {
		return nil, err
	}
	return evs[0], nil
}

func putBinaryData(obj map[string]json.RawMessage, ct string, body []byte) *ParseError {
	mt, _, _ := mime.ParseMediaType(ct)
	switch {
	case mt == "application/json" || mt == "text/json" || strings.HasSuffix(mt, "+json"):
		if !json.Valid(body) {
			return bodyError(ErrInvalidJSON, "The request body is not valid JSON although Content-Type is %s.", mt)
		}
		obj["data"] = json.RawMessage(append([]byte(nil), body...))
	case strings.HasPrefix(mt, "text/") && utf8.Valid(body):
		obj["data"] = mustJSON(string(body))
	default:
		obj["data_base64"] = mustJSON(base64.StdEncoding.EncodeToString(body))
	}
	return nil
}

func mustJSON(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// encodeObject writes a JSON object with sorted keys, so the result is stable.
func encodeObject(obj map[string]json.RawMessage) []byte {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b := []byte{'{'}
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, mustJSON(k)...)
		b = append(b, ':')
		b = append(b, obj[k]...)
	}
	return append(b, '}')
}
