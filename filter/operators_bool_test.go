package filter

import "testing"

func TestBoolEquals(t *testing.T) {
	tests := map[string]struct {
		value string
		event string
		want  bool
	}{
		"true vs true":            {"true", `{"b":true}`, true},
		"true vs false":           {"true", `{"b":false}`, false},
		"false vs false":          {"false", `{"b":false}`, true},
		"false vs true":           {"false", `{"b":true}`, false},
		"string filter value":     {`"FALSE"`, `{"b":false}`, true},
		"string event value":      {"true", `{"b":"true"}`, false},
		"number event value":      {"true", `{"b":1}`, false},
		"false vs missing":        {"false", `{}`, false},
		"false vs null":           {"false", `{"b":null}`, false},
		"array event value":       {"true", `{"b":[true]}`, false},
		"key found any case":      {"true", `{"B":true}`, true},
		"whitespace around value": {"true", "{ \"b\" :\n\ttrue }", true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := matchRaw(t, single("BoolEquals", "b", tc.value), tc.event); got != tc.want {
				t.Errorf("match = %v, want %v", got, tc.want)
			}
		})
	}
}
