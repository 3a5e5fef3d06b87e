package filter

import "testing"

func TestEventTypes(t *testing.T) {
	tests := map[string]struct {
		types     []string
		eventType string
		want      bool
	}{
		"nil list":               {nil, "anything", true},
		"exact":                  {[]string{"recordInserted"}, "recordInserted", true},
		"case-insensitive":       {[]string{"recordInserted"}, "RECORDINSERTED", true},
		"second entry":           {[]string{"a", "b"}, "B", true},
		"not listed":             {[]string{"a", "b"}, "c", false},
		"empty event type":       {[]string{"a"}, "", false},
		"all wildcard":           {[]string{"a", "all"}, "zzz", true},
		"ALL wildcard any case":  {[]string{"AlL"}, "zzz", true},
		"star wildcard":          {[]string{"*"}, "", true},
		"non-ASCII folding":      {[]string{"ÄPFEL"}, "äpfel", true},
		"Kelvin sign folds to k": {[]string{"\u212Aelvin"}, "kelvin", true},
		"prefix is not equality": {[]string{"record"}, "recordInserted", false},
		"all as a substring":     {[]string{"allx"}, "ally", false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := mustCompile(t, Spec{IncludedEventTypes: tc.types})
			if got := f.Match(&Event{EventType: tc.eventType}); got != tc.want {
				t.Errorf("match = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSubject(t *testing.T) {
	tests := map[string]struct {
		begins, ends  string
		caseSensitive bool
		subject       string
		want          bool
	}{
		"prefix":                          {"myapp/", "", false, "myapp/x", true},
		"prefix folded":                   {"MYAPP/", "", false, "myapp/x", true},
		"prefix case-sensitive miss":      {"MYAPP/", "", true, "myapp/x", false},
		"prefix case-sensitive hit":       {"myapp/", "", true, "myapp/x", true},
		"suffix":                          {"", ".JPG", false, "a/b.jpg", true},
		"suffix case-sensitive miss":      {"", ".JPG", true, "a/b.jpg", false},
		"both":                            {"a/", ".jpg", false, "A/B.JPG", true},
		"both, overlapping":               {"abc", "bcd", false, "abcd", true},
		"prefix longer than subject":      {"abcdef", "", false, "abc", false},
		"suffix longer than subject":      {"", "abcdef", false, "def", false},
		"empty subject":                   {"a", "", false, "", false},
		"no constraint on empty subject":  {"", "", false, "", true},
		"caret is literal":                {"^", "", false, "abc", false},
		"caret literal match":             {"^", "", false, "^abc", true},
		"dollar is literal":               {"", "$", false, "abc", false},
		"dollar literal match":            {"", "$", false, "abc$", true},
		"no wildcards":                    {"a*", "", false, "abc", false},
		"non-ASCII prefix":                {"ÄPFEL/", "", false, "äpfel/rot", true},
		"non-ASCII suffix":                {"", "/ÄPFEL", false, "obst/äpfel", true},
		"non-ASCII case-sensitive":        {"ÄPFEL", "", true, "äpfel", false},
		"Kelvin sign vs k (3 vs 1 bytes)": {"\u212A", "", false, "kx", true},
		"k vs Kelvin sign suffix":         {"", "k", false, "x\u212A", true},
		"long s folds to s":               {"s", "", false, "\u017Fx", true},
		"sharp s is not ss":               {"ss", "", false, "ßx", false},
		"Greek sigma forms":               {"", "Σ", false, "λόγος", true},
		"invalid UTF-8 subject":           {"a", "", false, "\xffa", false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := mustCompile(t, Spec{SubjectBeginsWith: tc.begins, SubjectEndsWith: tc.ends,
				IsSubjectCaseSensitive: tc.caseSensitive})
			if got := f.Match(&Event{Subject: tc.subject}); got != tc.want {
				t.Errorf("match = %v, want %v", got, tc.want)
			}
		})
	}
}
