package metrics

import (
	"bufio"
	"io"
	"math"
	"strconv"
	"strings"
)

// kind is a Prometheus metric type.
type kind string

const (
	counter   kind = "counter"
	gauge     kind = "gauge"
	histogram kind = "histogram"
)

// family is one metric name with its samples, written together.
type family struct {
	name, help string
	kind       kind
	samples    []sample
}

type sample struct {
	suffix string // "", "_bucket", "_sum", "_count"
	labels []string
	value  float64
}

// labels builds a label list from name/value pairs.
func labels(kv ...string) []string { return kv }

func (f *family) add(v float64, kv ...string) {
	f.samples = append(f.samples, sample{labels: kv, value: v})
}

// addHistogram writes cumulative buckets with upper bounds bounds (in the
// metric's unit), the sum and the count.
func (f *family) addHistogram(counts []int64, bounds []float64, sum float64, kv ...string) {
	var cum int64
	for i, c := range counts {
		cum += c
		le := "+Inf"
		if i < len(bounds) {
			le = formatFloat(bounds[i])
		}
		f.samples = append(f.samples, sample{suffix: "_bucket", labels: append(append([]string(nil), kv...), "le", le), value: float64(cum)})
	}
	f.samples = append(f.samples, sample{suffix: "_sum", labels: kv, value: sum}, sample{suffix: "_count", labels: kv, value: float64(cum)})
}

// write renders families in the text exposition format.
func write(w io.Writer, fams []*family) error {
	bw := bufio.NewWriter(w)
	for _, f := range fams {
		bw.WriteString("# HELP " + f.name + " " + escapeHelp(f.help) + "\n")
		bw.WriteString("# TYPE " + f.name + " " + string(f.kind) + "\n")
		for _, s := range f.samples {
			bw.WriteString(f.name + s.suffix)
			writeLabels(bw, s.labels)
			bw.WriteByte(' ')
			bw.WriteString(formatFloat(s.value))
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

func writeLabels(bw *bufio.Writer, kv []string) {
	if len(kv) == 0 {
		return
	}
	bw.WriteByte('{')
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString(kv[i] + `="` + escapeLabel(kv[i+1]) + `"`)
	}
	bw.WriteByte('}')
}

var labelEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
var helpEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`)

func escapeLabel(s string) string { return labelEscaper.Replace(s) }
func escapeHelp(s string) string  { return helpEscaper.Replace(s) }

func formatFloat(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
