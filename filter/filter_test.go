package filter

import (
	"errors"
	"testing"
)

// TestDocExamples checks edge-spec.md §10 examples 29-34, one row at a time.
func TestDocExamples(t *testing.T) {
	tests := map[string]struct {
		filter AdvancedFilter
		event  string
		want   bool
	}{
		"29.1 NumberGreaterThan 5 vs 6": {single("NumberGreaterThan", "Data.Key1", "5"), `{"data":{"Key1":6}}`, true},
		"29.1 NumberGreaterThan 5 vs 5": {single("NumberGreaterThan", "Data.Key1", "5"), `{"data":{"Key1":5}}`, false},
		"29.2 GreaterThanOrEquals 1.456 vs 1.456": {
			single("NumberGreaterThanOrEquals", "Data.Key2", "1.456"), `{"data":{"Key2":1.456}}`, true},
		"29.2 GreaterThanOrEquals 1.456 vs 1.4560": {
			single("NumberGreaterThanOrEquals", "Data.Key2", "1.456"), `{"data":{"Key2":1.4560}}`, true},
		"29.2 GreaterThanOrEquals 1.456 vs 1.455": {
			single("NumberGreaterThanOrEquals", "Data.Key2", "1.456"), `{"data":{"Key2":1.455}}`, false},
		"29.2 GreaterThanOrEquals 1.456 vs 1.4559999999999999999": {
			single("NumberGreaterThanOrEquals", "Data.Key2", "1.456"), `{"data":{"Key2":1.4559999999999999999}}`, false},
		"29.3 NumberLessThan 1000 vs P3 999": {
			single("NumberLessThan", "Data.P1.P2.P3", "1000"), `{"data":{"P1":{"P2":{"P3":999}}}}`, true},
		"29.3 NumberLessThan 1000 vs P3 1000": {
			single("NumberLessThan", "Data.P1.P2.P3", "1000"), `{"data":{"P1":{"P2":{"P3":1000}}}}`, false},
		"29.4 LessThanOrEquals 999 vs 999": {
			single("NumberLessThanOrEquals", "Data.P1.P2", "999"), `{"data":{"P1":{"P2":999}}}`, true},
		"29.4 LessThanOrEquals 999 vs 1000": {
			single("NumberLessThanOrEquals", "Data.P1.P2", "999"), `{"data":{"P1":{"P2":1000}}}`, false},
		"30 NumberIn 10":      {multi("NumberIn", "Data.Key1", "[1,10,100]"), `{"data":{"Key1":10}}`, true},
		"30 NumberIn 11":      {multi("NumberIn", "Data.Key1", "[1,10,100]"), `{"data":{"Key1":11}}`, false},
		"30 NumberNotIn 5":    {multi("NumberNotIn", "Data.Key2", "[2,3,4.56]"), `{"data":{"Key2":5}}`, true},
		"30 NumberNotIn 4.56": {multi("NumberNotIn", "Data.Key2", "[2,3,4.56]"), `{"data":{"Key2":4.56}}`, false},
		"31 StringContains AZURE": {
			multi("StringContains", "Data.Key1", `["microsoft","azure"]`), `{"data":{"Key1":"I love AZURE"}}`, true},
		"31 StringContains none": {
			multi("StringContains", "Data.Key1", `["microsoft","azure"]`), `{"data":{"Key1":"I love AWS"}}`, false},
		"31 StringBeginsWith GridX": {
			multi("StringBeginsWith", "Data.Key2", `["event","grid"]`), `{"data":{"Key2":"GridX"}}`, true},
		"31 StringBeginsWith XGrid": {
			multi("StringBeginsWith", "Data.Key2", `["event","grid"]`), `{"data":{"Key2":"XGrid"}}`, false},
		"31 StringEndsWith a.PNG": {
			multi("StringEndsWith", "Data.P3.P4", `["jpg","jpeg","png"]`), `{"data":{"P3":{"P4":"a.PNG"}}}`, true},
		"31 StringEndsWith a.gif": {
			multi("StringEndsWith", "Data.P3.P4", `["jpg","jpeg","png"]`), `{"data":{"P3":{"P4":"a.gif"}}}`, false},
		"31 StringIn Exact": {multi("StringIn", "RootKey", `["exact","string","matches"]`), `{"RootKey":"Exact"}`, true},
		"31 StringIn Exactly": {
			multi("StringIn", "RootKey", `["exact","string","matches"]`), `{"RootKey":"Exactly"}`, false},
		"31 StringNotIn AWS":   {multi("StringNotIn", "RootKey", `["aws","bridge"]`), `{"RootKey":"AWS"}`, false},
		"31 StringNotIn azure": {multi("StringNotIn", "RootKey", `["aws","bridge"]`), `{"RootKey":"azure"}`, true},
		"32 BoolEquals true":   {single("BoolEquals", "BoolKey1", "true"), `{"BoolKey1":true}`, true},
		"32 BoolEquals false":  {single("BoolEquals", "BoolKey1", "true"), `{"BoolKey1":false}`, false},
		"33 StringIn on array": {multi("StringIn", "Data.tags", `["a"]`), `{"data":{"tags":["a"]}}`, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := matchRaw(t, tc.filter, tc.event); got != tc.want {
				t.Errorf("match = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestDocExample34 checks the subject + event-type filter of example 34
// against the event of example 5.
func TestDocExample34(t *testing.T) {
	ev := &Event{
		Subject:   "myapp/vehicles/motorcycles",
		EventType: "recordInserted",
		Raw: []byte(`{"id":"eventId-func-0","eventType":"recordInserted","subject":"myapp/vehicles/motorcycles",` +
			`"eventTime":"2019-07-28T21:03:07+00:00","dataVersion":"1.0","data":{"make":"Ducati","model":"Monster"}}`),
	}
	tests := map[string]struct {
		spec Spec
		want bool
	}{
		"documented filter": {Spec{SubjectBeginsWith: "myapp/vehicles", SubjectEndsWith: "motorcycles",
			IncludedEventTypes: []string{"recordInserted"}}, true},
		"case-sensitive MyApp": {Spec{SubjectBeginsWith: "MyApp", SubjectEndsWith: "motorcycles",
			IsSubjectCaseSensitive: true, IncludedEventTypes: []string{"recordInserted"}}, false},
		"case-insensitive MyApp": {Spec{SubjectBeginsWith: "MyApp", SubjectEndsWith: "motorcycles",
			IncludedEventTypes: []string{"recordInserted"}}, true},
		"other event type": {Spec{SubjectBeginsWith: "myapp/vehicles",
			IncludedEventTypes: []string{"recordDeleted"}}, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := mustCompile(t, tc.spec).Match(ev); got != tc.want {
				t.Errorf("match = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestPartsAreANDed checks that every part present must pass.
func TestPartsAreANDed(t *testing.T) {
	spec := Spec{
		IncludedEventTypes: []string{"created"},
		SubjectBeginsWith:  "a/",
		SubjectEndsWith:    ".jpg",
		AdvancedFilters: []AdvancedFilter{
			single("NumberGreaterThan", "data.size", "10"),
			multi("StringIn", "data.kind", `["photo"]`),
		},
	}
	f := mustCompile(t, spec)
	good := Event{Subject: "a/b.jpg", EventType: "created", Raw: []byte(`{"data":{"size":11,"kind":"photo"}}`)}
	tests := map[string]struct {
		mutate func(*Event)
		want   bool
	}{
		"all pass":           {func(*Event) {}, true},
		"wrong type":         {func(e *Event) { e.EventType = "deleted" }, false},
		"wrong prefix":       {func(e *Event) { e.Subject = "b/b.jpg" }, false},
		"wrong suffix":       {func(e *Event) { e.Subject = "a/b.png" }, false},
		"first advanced":     {func(e *Event) { e.Raw = []byte(`{"data":{"size":10,"kind":"photo"}}`) }, false},
		"second advanced":    {func(e *Event) { e.Raw = []byte(`{"data":{"size":11,"kind":"video"}}`) }, false},
		"raw not an object":  {func(e *Event) { e.Raw = []byte(`[1]`) }, false},
		"raw malformed JSON": {func(e *Event) { e.Raw = []byte(`{"data":{"size":11,"kind":"photo"`) }, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			ev := good
			tc.mutate(&ev)
			if got := f.Match(&ev); got != tc.want {
				t.Errorf("match = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestIsEmpty(t *testing.T) {
	tests := map[string]struct {
		spec Spec
		want bool
	}{
		"zero spec":             {Spec{}, true},
		"empty type list":       {Spec{IncludedEventTypes: []string{}}, true},
		"all":                   {Spec{IncludedEventTypes: []string{"x", "ALL"}}, true},
		"star":                  {Spec{IncludedEventTypes: []string{"*"}}, true},
		"case sensitivity only": {Spec{IsSubjectCaseSensitive: true}, true},
		"one type":              {Spec{IncludedEventTypes: []string{"x"}}, false},
		"prefix":                {Spec{SubjectBeginsWith: "a"}, false},
		"suffix":                {Spec{SubjectEndsWith: "a"}, false},
		"advanced":              {Spec{AdvancedFilters: []AdvancedFilter{single("BoolEquals", "b", "true")}}, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := mustCompile(t, tc.spec).IsEmpty(); got != tc.want {
				t.Errorf("IsEmpty = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestNilFilterAndEvent(t *testing.T) {
	var f *Filter
	if !f.Match(&Event{}) || !f.Match(nil) || !f.IsEmpty() {
		t.Fatal("a nil *Filter must match everything and be empty")
	}
	notIn := mustCompile(t, Spec{AdvancedFilters: []AdvancedFilter{multi("StringNotIn", "a", `["x"]`)}})
	if !notIn.Match(nil) {
		t.Error("StringNotIn on a nil event (missing key) must pass")
	}
	typed := mustCompile(t, Spec{IncludedEventTypes: []string{"x"}})
	if typed.Match(nil) {
		t.Error("an event-type filter must not match a nil event")
	}
}

func TestCompileErrorIsErrInvalid(t *testing.T) {
	_, err := Compile(Spec{IncludedEventTypes: []string{""}})
	var fe *Error
	if !errors.As(err, &fe) || !errors.Is(err, ErrInvalid) {
		t.Fatalf("err = %v; want an *Error matching ErrInvalid", err)
	}
	if want := "invalid filter: includedEventTypes[0]: " + fe.Message; err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}
	if got := (&Error{Message: "Bad."}).Error(); got != "invalid filter: Bad." {
		t.Errorf("Error() without field = %q", got)
	}
}
