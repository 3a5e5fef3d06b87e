package filter

// Limits enforced by Compile. The edge documentation sets none; these follow
// the later cloud Event Grid limits where one exists, and otherwise bound the
// work a single event can cost.
const (
	// maxEventTypes bounds includedEventTypes. No limit is documented; 100
	// is far above any real list and keeps the linear scan short.
	maxEventTypes = 100
	// maxAdvancedFilters is the cloud's limit of advanced filters per
	// subscription (25 since 2020; the 2019 docs said 5, too low for
	// existing edge deployments).
	maxAdvancedFilters = 25
	// maxValues is the cloud's limit of values per advanced filter.
	maxValues = 25
	// maxValueRunes is the cloud's limit of 512 characters per string value.
	maxValueRunes = 512
	// maxKeyRunes bounds a key's length; generous next to any real path.
	maxKeyRunes = 256
	// maxKeySegments bounds a key's depth: the documented example
	// "Data.Prop1.Prop2.Prop3.Prop4.Prop5" has 6 segments.
	maxKeySegments = 10
)

// Spec is a subscription filter as decoded from the REST API or module twin.
// Matching JSON property names case-insensitively is the caller's job; Spec
// receives the decoded values.
type Spec struct {
	IncludedEventTypes     []string // nil or empty = all event types
	SubjectBeginsWith      string
	SubjectEndsWith        string
	IsSubjectCaseSensitive bool
	AdvancedFilters        []AdvancedFilter
}

// Event is what a filter looks at.
type Event struct {
	// Subject and EventType are the envelope values the broker extracted
	// (Event Grid schema: subject/eventType; CloudEvents: subject/type;
	// custom schema: top-level "subject"/"eventType" strings if present,
	// else "").
	Subject   string
	EventType string
	// Raw is the whole event as one JSON object. Match treats it
	// defensively: malformed bytes never cause a panic.
	Raw []byte
}

// Filter is a compiled subscription filter. It is immutable, so one Filter
// may be used by any number of goroutines at once.
type Filter struct {
	eventTypes []string // nil: every event type passes
	subject    subjectFilter
	advanced   []advancedFilter
}

// Compile validates s and compiles it. On invalid input it returns an *Error
// (matching ErrInvalid) naming the first offending field; fields are checked
// in the order includedEventTypes, advancedFilters[0], advancedFilters[1]...
func Compile(s Spec) (*Filter, error) {
	types, err := compileEventTypes(s.IncludedEventTypes)
	if err != nil {
		return nil, err
	}
	if len(s.AdvancedFilters) > maxAdvancedFilters {
		return nil, errorf("advancedFilters", "At most %d advanced filters are allowed; this filter has %d.",
			maxAdvancedFilters, len(s.AdvancedFilters))
	}
	f := &Filter{eventTypes: types, subject: compileSubject(s)}
	for i, a := range s.AdvancedFilters {
		af, err := compileAdvanced(a, i)
		if err != nil {
			return nil, err
		}
		f.advanced = append(f.advanced, af)
	}
	return f, nil
}

// Match reports whether ev passes every part of the filter. A nil *Filter
// matches everything, and a nil ev is treated as an event with empty fields.
// Match does not allocate.
func (f *Filter) Match(ev *Event) bool {
	if f == nil {
		return true
	}
	var subject, eventType string
	var raw []byte
	if ev != nil {
		subject, eventType, raw = ev.Subject, ev.EventType, ev.Raw
	}
	if f.eventTypes != nil && !matchEventType(f.eventTypes, eventType) {
		return false
	}
	if !f.subject.match(subject) {
		return false
	}
	for i := range f.advanced {
		if !f.advanced[i].match(raw) {
			return false
		}
	}
	return true
}

// IsEmpty reports whether the filter matches every event, so that the
// broker can skip it.
func (f *Filter) IsEmpty() bool {
	return f == nil || (f.eventTypes == nil && f.subject.empty() && len(f.advanced) == 0)
}
