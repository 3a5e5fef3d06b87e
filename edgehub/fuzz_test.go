package edgehub

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// FuzzInputTopic: any topic edgeHub could deliver is either rejected or
// yields a non-empty input name without '/' and a property bag.
func FuzzInputTopic(f *testing.F) {
	id := Identity{HubHostname: "h", Gateway: "g", DeviceID: "gw1", ModuleID: "eventgridmodule"}
	for _, s := range []string{
		"devices/gw1/modules/eventgridmodule/inputs/telemetry/%24.cdid=gw1&%24.cmid=sensor&%24.ct=application%2Fjson&%24.ce=utf-8",
		"devices/gw1/modules/eventgridmodule/inputs/in1",
		"devices/gw1/modules/eventgridmodule/inputs//x",
		"devices/gw1/modules/eventgridmodule/inputs/in1/a=%zz&b&=c&&d=1+2",
		"devices/gw1/modules/other/inputs/in1/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, topic string) {
		input, props, ok := id.InputName(topic)
		if !ok {
			return
		}
		if input == "" || strings.Contains(input, "/") || props == nil {
			t.Fatalf("InputName(%q) = %q, %v", topic, input, props)
		}
	})
}

func TestParsePropertyBag(t *testing.T) {
	got := ParsePropertyBag("%24.on=out&%24.ct=application%2Fjson&plus=1+2&flag&empty=&bad=%zz&&")
	want := map[string]string{"$.on": "out", "$.ct": "application/json", "plus": "1+2", "flag": "", "empty": "", "bad": "%zz"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
}

// FuzzTwinTopics: twin response and patch topics parse without panicking,
// and what parses carries a status and a $rid.
func FuzzTwinTopics(f *testing.F) {
	for _, s := range []string{"$iothub/twin/res/200/?$rid=1", "$iothub/twin/res/204/?$rid=7&$version=12",
		"$iothub/twin/PATCH/properties/desired/?$version=3", "$iothub/twin/res/abc/?$rid=1", "$iothub/twin/res/200"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, topic string) {
		if status, rid, _, ok := parseResponse(topic); ok && (status < 100 || status > 999 || rid == "") {
			t.Fatalf("parseResponse(%q) = %d %q", topic, status, rid)
		}
		parseDesiredVersion(topic)
	})
}

func TestTwinTopics(t *testing.T) {
	status, rid, v, ok := parseResponse("$iothub/twin/res/204/?$rid=7&$version=12")
	if !ok || status != 204 || rid != "7" || v != 12 {
		t.Fatalf("got %d %q %d %v", status, rid, v, ok)
	}
	for _, bad := range []string{"$iothub/twin/res/200/", "$iothub/twin/res/x/?$rid=1", "$iothub/twin/GET/?$rid=1"} {
		if _, _, _, ok := parseResponse(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
	if v, ok := parseDesiredVersion("$iothub/twin/PATCH/properties/desired/?$version=13"); !ok || v != 13 {
		t.Fatalf("desired version %d %v", v, ok)
	}
}

// FuzzMergeDiff: the patch mergeDiff computes turns the old document into
// the new one (twin documents: objects without nulls; empty objects are not
// sent, so they are compared as absent).
func FuzzMergeDiff(f *testing.F) {
	f.Add(`{"topics":{"a":{},"b":{"inputSchema":"x"}},"errors":{"topics":{"a":"e"}}}`, `{"topics":{"b":{"inputSchema":"y"}},"errors":{"topics":{}}}`)
	f.Add(`{"a":1,"b":[1,2],"c":{"d":true}}`, `{"a":"1","c":5}`)
	f.Add(`{}`, `{"x":{"y":{"z":{}}}}`)
	f.Fuzz(func(t *testing.T, from, to string) {
		var a, b map[string]any
		if decodeJSON([]byte(from), &a) != nil || decodeJSON([]byte(to), &b) != nil || a == nil || b == nil {
			return
		}
		a, _ = twinify(a).(map[string]any)
		b, _ = twinify(b).(map[string]any)
		patch := mergeDiff(a, b)
		raw, err := json.Marshal(patch) // what goes on the wire
		if err != nil {
			t.Fatal(err)
		}
		var wire map[string]any
		if err := decodeJSON(raw, &wire); err != nil {
			t.Fatal(err)
		}
		got := mergePatch(clone(a), wire)
		if !reflect.DeepEqual(prune(got), prune(clone(b))) {
			t.Fatalf("from %v to %v: patch %s gives %v", a, b, raw, got)
		}
	})
}

func clone(m map[string]any) map[string]any {
	raw, _ := json.Marshal(m)
	var out map[string]any
	_ = decodeJSON(raw, &out)
	return out
}

// prune removes empty objects, recursively.
func prune(m map[string]any) map[string]any {
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			if len(prune(sub)) == 0 {
				delete(m, k)
			}
		}
	}
	return m
}
