package eventschema

// parseCustom accepts any JSON object and keeps it exactly as received; the
// top-level subject and eventType strings, when present, are used by filters.
func parseCustom(_ int, el []byte) (*Event, *ParseError) {
	raw := append([]byte(nil), el...)
	ev := &Event{Raw: raw}
	members(el, func(key, val []byte) {
		switch {
		case keyIs(key, "subject") && kindOf(val) == tokString:
			ev.Subject = viewIn(raw, el, val)
		case keyIs(key, "eventType") && kindOf(val) == tokString:
			ev.Type = viewIn(raw, el, val)
		}
	})
	return ev, nil
}
