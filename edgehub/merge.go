package edgehub

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
)

// Twin documents are JSON objects combined with JSON merge patch semantics
// (RFC 7396): a patch's null removes a property, an object merges into an
// object, anything else replaces.

// mergePatch applies patch to doc in place and returns doc.
func mergePatch(doc, patch map[string]any) map[string]any {
	if doc == nil {
		doc = map[string]any{}
	}
	for k, pv := range patch {
		if pv == nil {
			delete(doc, k)
			continue
		}
		pm, pIsObj := pv.(map[string]any)
		dm, dIsObj := doc[k].(map[string]any)
		switch {
		case pIsObj && dIsObj:
			doc[k] = mergePatch(dm, pm)
		case pIsObj:
			doc[k] = mergePatch(map[string]any{}, pm)
		default:
			doc[k] = pv
		}
	}
	return doc
}

// mergeDiff returns the patch that turns from into to: removed properties
// become null, objects on both sides are compared property by property.
func mergeDiff(from, to map[string]any) map[string]any {
	patch := map[string]any{}
	for k := range from {
		if _, ok := to[k]; !ok {
			patch[k] = nil
		}
	}
	for k, tv := range to {
		fv, had := from[k]
		fm, fIsObj := fv.(map[string]any)
		tm, tIsObj := tv.(map[string]any)
		switch {
		case had && fIsObj && tIsObj:
			if d := mergeDiff(fm, tm); len(d) > 0 {
				patch[k] = d
			}
		case !had && tIsObj && len(tm) == 0:
			// an empty object adds nothing (twins may not keep one)
		case !had || !reflect.DeepEqual(fv, tv):
			patch[k] = tv
		}
	}
	return patch
}

// twinValue turns any JSON-encodable value into a twin-compatible one: twins
// hold no arrays (the original encoded them as JSON strings) and a null
// property would mean "remove", so nulls are left out.
func twinValue(v any) any {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var generic any
	if decodeJSON(raw, &generic) != nil {
		return nil
	}
	return twinify(generic)
}

func twinify(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				delete(x, k)
				continue
			}
			x[k] = twinify(e)
		}
		return x
	case []any:
		raw, _ := json.Marshal(x)
		return string(raw)
	default:
		return x
	}
}

// decodeJSON decodes keeping numbers as json.Number, so values pass through
// unchanged (no float rounding of large integers).
func decodeJSON(raw []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		return err
	}
	if _, err := d.Token(); err != io.EOF {
		return errors.New("unexpected data after the JSON value")
	}
	return nil
}
