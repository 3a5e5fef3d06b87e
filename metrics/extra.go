package metrics

// Sample is one value of a metric another component reports (the MQTT and
// edgeHub ingest). Samples with the same Name form one family; the first
// sample's Help and Gauge describe it.
type Sample struct {
	Name, Help string
	Gauge      bool // a gauge; otherwise a counter
	Labels     []string
	Value      float64
}

// Extra returns samples at scrape time.
type Extra func() []Sample

// extraFamilies groups extra samples by name, in first-seen order.
func extraFamilies(extras []Extra) []*family {
	var out []*family
	byName := map[string]*family{}
	for _, e := range extras {
		for _, s := range e() {
			f, ok := byName[s.Name]
			if !ok {
				k := counter
				if s.Gauge {
					k = gauge
				}
				f = &family{name: s.Name, help: s.Help, kind: k}
				byName[s.Name] = f
				out = append(out, f)
			}
			f.add(s.Value, s.Labels...)
		}
	}
	return out
}
