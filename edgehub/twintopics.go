package edgehub

import (
	"net/url"
	"strconv"
	"strings"
)

// Twin topics of IoT Hub's MQTT protocol, as edgeHub serves them.
const (
	twinResponses     = "$iothub/twin/res/#"
	twinDesired       = "$iothub/twin/PATCH/properties/desired/#"
	twinResPrefix     = "$iothub/twin/res/"
	twinDesiredPrefix = "$iothub/twin/PATCH/properties/desired/"
)

// twinGetTopic requests the whole twin; the answer comes on
// $iothub/twin/res/200/?$rid={rid}.
func twinGetTopic(rid string) string { return "$iothub/twin/GET/?$rid=" + rid }

// twinReportTopic patches the reported properties; the answer comes on
// $iothub/twin/res/204/?$rid={rid}&$version={v}.
func twinReportTopic(rid string) string { return "$iothub/twin/PATCH/properties/reported/?$rid=" + rid }

// parseResponse reads $iothub/twin/res/{status}/?$rid={rid}[&$version={v}].
func parseResponse(topic string) (status int, rid string, version int64, ok bool) {
	rest, found := strings.CutPrefix(topic, twinResPrefix)
	if !found {
		return 0, "", 0, false
	}
	code, query, found := strings.Cut(rest, "/")
	if !found {
		return 0, "", 0, false
	}
	status, err := strconv.Atoi(code)
	if err != nil || status < 100 || status > 999 {
		return 0, "", 0, false
	}
	q := parseQuery(query)
	rid = q.Get("$rid")
	if rid == "" {
		return 0, "", 0, false
	}
	version, _ = strconv.ParseInt(q.Get("$version"), 10, 64)
	return status, rid, version, true
}

// parseDesiredVersion reads $iothub/twin/PATCH/properties/desired/?$version={v};
// 0 when the topic carries no version.
func parseDesiredVersion(topic string) (int64, bool) {
	rest, found := strings.CutPrefix(topic, twinDesiredPrefix)
	if !found {
		return 0, false
	}
	v, _ := strconv.ParseInt(parseQuery(rest).Get("$version"), 10, 64)
	return v, true
}

func parseQuery(s string) url.Values {
	q, _ := url.ParseQuery(strings.TrimPrefix(s, "?"))
	return q
}
