package eventgrid

import (
	"fmt"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/eventschema"
)

// MaxRequestBytes is cloud Event Grid's limit on one publish request, and so
// on one event: 1 MB (1,048,576 bytes) of JSON array.
const MaxRequestBytes = 1 << 20

// plan is a delivery cut into request bodies.
type plan struct {
	bodies  [][]byte
	refused []destination.Refusal
}

// plan encodes the delivery's events as the cloud expects them (Event Grid
// events with the destination's topic; others verbatim) and packs them, in
// order, into JSON arrays of at most MaxRequestBytes. An event that does not
// fit in a request on its own is refused.
func (s *Sender) plan(d *destination.Delivery) (plan, error) {
	var p plan
	guess := min(eventschema.BatchSize(d.Events)+64, MaxRequestBytes)
	cur := append(make([]byte, 0, guess), '[')
	for i, ev := range d.Events {
		raw := ev.Raw
		if d.Schema == eventschema.EventGrid {
			var err error
			if raw, err = eventschema.WithTopic(ev, s.topic); err != nil {
				return plan{}, err
			}
		}
		if len(raw)+2 > MaxRequestBytes {
			p.refused = append(p.refused, destination.Refusal{Index: i, Reason: "PayloadTooLarge",
				Detail: fmt.Sprintf("the event is %d bytes as forwarded; cloud Event Grid accepts at most %d bytes per request and event", len(raw), MaxRequestBytes-2)})
			continue
		}
		if len(cur) > 1 && len(cur)+len(raw)+2 > MaxRequestBytes {
			p.bodies = append(p.bodies, append(cur, ']'))
			cur = append(make([]byte, 0, guess), '[')
		}
		if len(cur) > 1 {
			cur = append(cur, ',')
		}
		cur = append(cur, raw...)
	}
	if len(cur) > 1 {
		p.bodies = append(p.bodies, append(cur, ']'))
	}
	return p, nil
}
