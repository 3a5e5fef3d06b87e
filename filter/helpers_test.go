package filter

import (
	"encoding/json"
	"testing"
)

// single builds an advanced filter with a "value" property.
func single(op, key, value string) AdvancedFilter {
	return AdvancedFilter{OperatorType: op, Key: key, Value: json.RawMessage(value)}
}

// multi builds an advanced filter with a "values" property.
func multi(op, key, values string) AdvancedFilter {
	return AdvancedFilter{OperatorType: op, Key: key, Values: json.RawMessage(values)}
}

// mustCompile compiles s or fails the test.
func mustCompile(tb testing.TB, s Spec) *Filter {
	tb.Helper()
	f, err := Compile(s)
	if err != nil {
		tb.Fatalf("Compile(%+v): %v", s, err)
	}
	return f
}

// matchRaw compiles one advanced filter and evaluates it against raw.
func matchRaw(tb testing.TB, a AdvancedFilter, raw string) bool {
	tb.Helper()
	f := mustCompile(tb, Spec{AdvancedFilters: []AdvancedFilter{a}})
	return f.Match(&Event{Raw: []byte(raw)})
}
