package mqtttopic

import "strings"

// Match reports whether the topic name matches the filter as an MQTT broker
// would deliver it (§4.7): '+' matches exactly one level, '#' the parent
// level and any number of levels below it, and a filter starting with a
// wildcard never matches a topic starting with '$' (§4.7.2). Both arguments
// are assumed valid; Match allocates nothing.
func Match(filter, topic string) bool {
	if topic != "" && topic[0] == '$' && filter != "" && (filter[0] == '+' || filter[0] == '#') {
		return false
	}
	for {
		fl, frest, fmore := strings.Cut(filter, "/")
		if fl == "#" {
			return true
		}
		tl, trest, tmore := strings.Cut(topic, "/")
		if fl != "+" && fl != tl {
			return false
		}
		switch {
		case !fmore && !tmore:
			return true
		case !tmore:
			// The topic ends here: only a trailing "/#" still matches
			// ("a/#" matches "a").
			return frest == "#"
		case !fmore:
			return false
		}
		filter, topic = frest, trest
	}
}
