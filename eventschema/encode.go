package eventschema

// AppendBatch appends the JSON array of the events' delivered forms to dst. This is
// the body of a delivery request: always an array, even for one event.
func AppendBatch(dst []byte, events []*Event) []byte {
	dst = append(dst, '[')
	for i, ev := range events {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, ev.Raw...)
	}
	return append(dst, ']')
}

// BatchSize is the length of AppendBatch's output for these events.
func BatchSize(events []*Event) int {
	n := 2
	for i, ev := range events {
		if i > 0 {
			n++
		}
		n += len(ev.Raw)
	}
	return n
}
