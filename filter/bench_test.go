package filter

import "testing"

// Sinks keep benchmark and allocation-test results alive.
var (
	sinkBool   bool
	sinkString string
	sinkFilter *Filter
)

// typicalEvent is a delivered Event Grid schema event of about 400 bytes.
var typicalEvent = Event{
	Subject:   "/blobServices/default/containers/cont1/blobs/Team.jpg",
	EventType: "Microsoft.Storage.BlobCreated",
	Raw: []byte(`{"id":"d278f2aa-2558-41aa-816b-e6d8cc8fa140","topic":"MicrosoftStorage",` +
		`"subject":"/blobServices/default/containers/cont1/blobs/Team.jpg",` +
		`"eventType":"Microsoft.Storage.BlobCreated","eventTime":"2019-10-01T21:35:17.7219554Z",` +
		`"dataVersion":"1.0","metadataVersion":"1","data":{"api":"PutBlob",` +
		`"contentType":"image/jpeg",` +
		`"contentLength":858129,"blobType":"BlockBlob","url":"https://edge/cont1/Team.jpg","sequencer":"00"}}`),
}

// subjectTypeSpec is a filter with only the subject and event-type parts.
var subjectTypeSpec = Spec{
	IncludedEventTypes: []string{"Microsoft.Storage.BlobDeleted", "Microsoft.Storage.BlobCreated"},
	SubjectBeginsWith:  "/blobServices/default/containers/",
	SubjectEndsWith:    ".JPG",
}

// mixedSpec has five advanced filters of mixed operators, all passing on
// typicalEvent.
var mixedSpec = Spec{
	AdvancedFilters: []AdvancedFilter{
		single("NumberGreaterThan", "Data.contentLength", "1024"),
		multi("StringIn", "data.blobType", `["PageBlob","BlockBlob","AppendBlob"]`),
		multi("StringEndsWith", "Data.url", `[".png",".jpg",".jpeg"]`),
		multi("StringContains", "data.contentType", `["image/","video/"]`),
		multi("NumberNotIn", "data.size", `[0,1,2]`),
	},
}

func BenchmarkMatchSubjectAndType(b *testing.B) {
	f := mustCompile(b, subjectTypeSpec)
	if !f.Match(&typicalEvent) {
		b.Fatal("benchmark filter does not match")
	}
	b.ReportAllocs()
	for b.Loop() {
		sinkBool = f.Match(&typicalEvent)
	}
}

func BenchmarkMatchAdvanced5(b *testing.B) {
	f := mustCompile(b, mixedSpec)
	if !f.Match(&typicalEvent) {
		b.Fatal("benchmark filter does not match")
	}
	b.SetBytes(int64(len(typicalEvent.Raw)))
	b.ReportAllocs()
	for b.Loop() {
		sinkBool = f.Match(&typicalEvent)
	}
}

func BenchmarkLookup(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		v, _ := Lookup(typicalEvent.Raw, "data.sequencer")
		sinkBool = v.Kind == String
	}
}

func BenchmarkCompile(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkFilter, _ = Compile(mixedSpec)
	}
}

// TestMatchDoesNotAllocate asserts the hot-path contract on representative
// filters, matching and non-matching.
func TestMatchDoesNotAllocate(t *testing.T) {
	full := mixedSpec
	full.IncludedEventTypes = subjectTypeSpec.IncludedEventTypes
	full.SubjectBeginsWith = "/BLOBSERVICES/"
	full.AdvancedFilters = append(full.AdvancedFilters[:5:5],
		single("BoolEquals", "data.missing", "true"),
		multi("StringNotIn", "data.api", `["\u00c4pfel","PutBlob"]`))
	events := map[string]*Event{
		"typical": &typicalEvent,
		"nil":     nil,
		"escaped": {EventType: "Microsoft.Storage.BlobCreated", Raw: []byte(`{"data":{"url":"\u00e4.JPG"}}`)},
	}
	for _, spec := range []Spec{subjectTypeSpec, mixedSpec, full} {
		f := mustCompile(t, spec)
		for name, ev := range events {
			if n := testing.AllocsPerRun(200, func() { sinkBool = f.Match(ev) }); n != 0 {
				t.Errorf("Match(%s) allocated %.1f times per run", name, n)
			}
		}
	}
}
