package filter

import "strings"

// compileEventTypes validates includedEventTypes and returns the list to
// match, or nil when every event type passes.
func compileEventTypes(types []string) ([]string, *Error) {
	if len(types) > maxEventTypes {
		return nil, errorf("includedEventTypes",
			"At most %d event types may be listed; this list has %d.", maxEventTypes, len(types))
	}
	all := false
	for i, t := range types {
		if t == "" {
			return nil, errorf(indexed("includedEventTypes", i),
				"Event types must not be empty strings; list \"all\" to receive every event type.")
		}
		if strings.EqualFold(t, "all") || t == "*" {
			all = true
		}
	}
	if all || len(types) == 0 {
		return nil, nil
	}
	return append([]string(nil), types...), nil
}

// matchEventType reports whether eventType is one of types (folded
// equality); types is never empty here.
func matchEventType(types []string, eventType string) bool {
	for _, t := range types {
		if strings.EqualFold(t, eventType) {
			return true
		}
	}
	return false
}

// subjectFilter is the compiled subjectBeginsWith / subjectEndsWith pair.
type subjectFilter struct {
	prefix, suffix string
	caseSensitive  bool
	// foldedPrefix and foldedSuffix hold the canonical runes of prefix and
	// suffix when the comparison is case-insensitive.
	foldedPrefix, foldedSuffix []rune
}

// compileSubject builds the subject part from the spec.
func compileSubject(s Spec) subjectFilter {
	f := subjectFilter{prefix: s.SubjectBeginsWith, suffix: s.SubjectEndsWith, caseSensitive: s.IsSubjectCaseSensitive}
	if !f.caseSensitive {
		f.foldedPrefix = newFoldPattern(f.prefix, false).runes
		f.foldedSuffix = newFoldPattern(f.suffix, false).runes
	}
	return f
}

// empty reports whether the subject part accepts every subject.
func (f *subjectFilter) empty() bool { return f.prefix == "" && f.suffix == "" }

// match reports whether subject passes both the prefix and the suffix test.
func (f *subjectFilter) match(subject string) bool {
	if f.caseSensitive {
		return strings.HasPrefix(subject, f.prefix) && strings.HasSuffix(subject, f.suffix)
	}
	return hasPrefixFold(subject, f.foldedPrefix) && hasSuffixFold(subject, f.foldedSuffix)
}
