package filter

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// repeatList returns a JSON array of n copies of elem.
func repeatList(elem string, n int) string {
	return "[" + strings.TrimSuffix(strings.Repeat(elem+",", n), ",") + "]"
}

// nFilters returns n valid advanced filters.
func nFilters(n int) []AdvancedFilter {
	fs := make([]AdvancedFilter, n)
	for i := range fs {
		fs[i] = single("BoolEquals", "b", "true")
	}
	return fs
}

func TestCompileErrors(t *testing.T) {
	longKey := strings.Repeat("k", 257)
	tests := map[string]struct {
		spec      Spec
		field     string
		inMessage string
	}{
		"empty event type": {Spec{IncludedEventTypes: []string{"a", ""}},
			"includedEventTypes[1]", "must not be empty"},
		"101 event types":     {Spec{IncludedEventTypes: make([]string, 101)}, "includedEventTypes", "At most 100"},
		"26 advanced filters": {Spec{AdvancedFilters: nFilters(26)}, "advancedFilters", "At most 25"},
		"missing operator": {Spec{AdvancedFilters: []AdvancedFilter{single("", "k", "1")}},
			"advancedFilters[0].operatorType", "required; supported operators are NumberGreaterThan"},
		"unknown operator": {Spec{AdvancedFilters: []AdvancedFilter{single("BoolEquals", "b", "true"),
			single("NumberBetween", "k", "1")}},
			"advancedFilters[1].operatorType", `"NumberBetween" is not supported; supported operators are ` +
				"NumberGreaterThan, NumberGreaterThanOrEquals, NumberLessThan, NumberLessThanOrEquals, NumberIn, " +
				"NumberNotIn, BoolEquals, StringIn, StringNotIn, StringBeginsWith, StringEndsWith, StringContains."},
		"cloud-only operator": {Spec{AdvancedFilters: []AdvancedFilter{multi("NumberInRange", "k", "[[1,2]]")}},
			"advancedFilters[0].operatorType", "not supported"},
		"empty key": {Spec{AdvancedFilters: []AdvancedFilter{single("BoolEquals", "", "true")}},
			"advancedFilters[0].key", "key is required"},
		"key too long": {Spec{AdvancedFilters: []AdvancedFilter{single("BoolEquals", longKey, "true")}},
			"advancedFilters[0].key", "257 characters long; the maximum is 256"},
		"key empty middle segment": {Spec{AdvancedFilters: []AdvancedFilter{single("BoolEquals", "Data..x", "true")}},
			"advancedFilters[0].key", "empty segment"},
		"key trailing dot": {Spec{AdvancedFilters: []AdvancedFilter{single("BoolEquals", "Data.", "true")}},
			"advancedFilters[0].key", "empty segment"},
		"key leading dot": {Spec{AdvancedFilters: []AdvancedFilter{single("BoolEquals", ".x", "true")}},
			"advancedFilters[0].key", "empty segment"},
		"key 11 segments": {Spec{AdvancedFilters: []AdvancedFilter{single("BoolEquals", "a.b.c.d.e.f.g.h.i.j.k", "true")}},
			"advancedFilters[0].key", "11 segments; the maximum is 10"},
		"single op without operand": {Spec{AdvancedFilters: []AdvancedFilter{{OperatorType: "NumberLessThan", Key: "k"}}},
			"advancedFilters[0].value", `NumberLessThan requires a "value".`},
		"single op with null operands": {Spec{AdvancedFilters: []AdvancedFilter{{OperatorType: "BoolEquals", Key: "k",
			Value: json.RawMessage("null"), Values: json.RawMessage(" null ")}}},
			"advancedFilters[0].value", `BoolEquals requires a "value".`},
		"multi op without operand": {Spec{AdvancedFilters: []AdvancedFilter{{OperatorType: "StringIn", Key: "k"}}},
			"advancedFilters[0].values", `StringIn requires "values", a non-empty array.`},
		"single op with array value": {Spec{AdvancedFilters: []AdvancedFilter{single("NumberGreaterThan", "k", "[1]")}},
			"advancedFilters[0].value", "takes a single value, not an array"},
		"single op with two values": {Spec{AdvancedFilters: []AdvancedFilter{multi("NumberGreaterThan", "k", "[1,2]")}},
			"advancedFilters[0].values", "takes a single value; put it in \"value\" (this array has 2 elements)"},
		"single op with empty values": {Spec{AdvancedFilters: []AdvancedFilter{multi("BoolEquals", "k", "[]")}},
			"advancedFilters[0].values", "(this array has 0 elements)"},
		"empty values": {Spec{AdvancedFilters: []AdvancedFilter{multi("StringIn", "k", "[]")}},
			"advancedFilters[0].values", "needs at least one value; the array is empty"},
		"26 values": {Spec{AdvancedFilters: []AdvancedFilter{multi("NumberIn", "k", repeatList("1", 26))}},
			"advancedFilters[0].values", "at most 25 values; this one has 26"},
		"26 values via value": {Spec{AdvancedFilters: []AdvancedFilter{single("StringIn", "k", repeatList(`"a"`, 26))}},
			"advancedFilters[0].value", "at most 25 values"},
		"invalid JSON value": {Spec{AdvancedFilters: []AdvancedFilter{single("NumberLessThan", "k", "1.")}},
			"advancedFilters[0].value", "not valid JSON"},
		"trailing data in values": {Spec{AdvancedFilters: []AdvancedFilter{multi("NumberIn", "k", "[1] [2]")}},
			"advancedFilters[0].values", "not valid JSON"},
		"number as string": {Spec{AdvancedFilters: []AdvancedFilter{multi("NumberIn", "k", `[1,"2"]`)}},
			"advancedFilters[0].values[1]", `the string "2"; write it without quotes`},
		"number single as string": {Spec{AdvancedFilters: []AdvancedFilter{single("NumberGreaterThan", "k", `"5"`)}},
			"advancedFilters[0].value", `NumberGreaterThan needs JSON numbers, but this value is the string "5"`},
		"number as word": {Spec{AdvancedFilters: []AdvancedFilter{single("NumberGreaterThan", "k", `"five"`)}},
			"advancedFilters[0].value", "needs JSON numbers, but this value is a string."},
		"number as bool": {Spec{AdvancedFilters: []AdvancedFilter{multi("NumberNotIn", "k", `[true]`)}},
			"advancedFilters[0].values[0]", "needs JSON numbers, but this value is a boolean."},
		"number as null element": {Spec{AdvancedFilters: []AdvancedFilter{multi("NumberNotIn", "k", `[1,null]`)}},
			"advancedFilters[0].values[1]", "but this value is null."},
		"number as object": {Spec{AdvancedFilters: []AdvancedFilter{single("NumberLessThan", "k", `{"a":1}`)}},
			"advancedFilters[0].value", "but this value is an object."},
		"nested array": {Spec{AdvancedFilters: []AdvancedFilter{multi("NumberIn", "k", `[[1]]`)}},
			"advancedFilters[0].values[0]", "but this value is an array."},
		"number exponent out of range": {Spec{AdvancedFilters: []AdvancedFilter{single("NumberLessThan", "k",
			"1e1234567890123456789")}}, "advancedFilters[0].value", "out of range"},
		"bool as number": {Spec{AdvancedFilters: []AdvancedFilter{single("BoolEquals", "k", "1")}},
			"advancedFilters[0].value", "BoolEquals needs true or false, but this value is a number."},
		"bool as other string": {Spec{AdvancedFilters: []AdvancedFilter{single("BoolEquals", "k", `"yes"`)}},
			"advancedFilters[0].value", `but this value is the string "yes"`},
		"string as number": {Spec{AdvancedFilters: []AdvancedFilter{multi("StringIn", "k", `["a",5]`)}},
			"advancedFilters[0].values[1]", "StringIn needs JSON strings, but this value is a number; write it in quotes."},
		"string as bool": {Spec{AdvancedFilters: []AdvancedFilter{multi("StringContains", "k", `true`)}},
			"advancedFilters[0].values", "but this value is a boolean"},
		"string as null element": {Spec{AdvancedFilters: []AdvancedFilter{multi("StringBeginsWith", "k", `[null]`)}},
			"advancedFilters[0].values[0]", "but this value is null"},
		"string too long": {Spec{AdvancedFilters: []AdvancedFilter{multi("StringEndsWith", "k",
			`["ok","`+strings.Repeat("ä", 513)+`"]`)}},
			"advancedFilters[0].values[1]", "513 characters long; the maximum is 512"},
		"second filter reported": {Spec{AdvancedFilters: []AdvancedFilter{single("BoolEquals", "b", "true"),
			single("BoolEquals", "b", "2")}}, "advancedFilters[1].value", "BoolEquals"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f, err := Compile(tc.spec)
			var fe *Error
			if !errors.As(err, &fe) {
				t.Fatalf("Compile = %v, %v; want an *Error", f, err)
			}
			if f != nil {
				t.Error("Compile returned a filter along with an error")
			}
			if fe.Field != tc.field {
				t.Errorf("Field = %q, want %q", fe.Field, tc.field)
			}
			if !strings.Contains(fe.Message, tc.inMessage) {
				t.Errorf("Message = %q, want it to contain %q", fe.Message, tc.inMessage)
			}
			if !strings.HasSuffix(fe.Message, ".") || fe.Message[0] < 'A' || fe.Message[0] > 'Z' {
				t.Errorf("Message %q is not a sentence", fe.Message)
			}
		})
	}
}

// TestCompileAccepts covers the limits and lenient forms that must compile.
func TestCompileAccepts(t *testing.T) {
	tests := map[string]Spec{
		"100 event types":        {IncludedEventTypes: strings.Split(strings.Repeat("t,", 99)+"t", ",")},
		"25 advanced filters":    {AdvancedFilters: nFilters(25)},
		"25 values":              {AdvancedFilters: []AdvancedFilter{multi("NumberIn", "k", repeatList("1", 25))}},
		"512-character string":   {AdvancedFilters: []AdvancedFilter{multi("StringIn", "k", `["`+strings.Repeat("ä", 512)+`"]`)}},
		"256-character key":      {AdvancedFilters: []AdvancedFilter{single("BoolEquals", strings.Repeat("k", 256), "true")}},
		"10-segment key":         {AdvancedFilters: []AdvancedFilter{single("BoolEquals", "a.b.c.d.e.f.g.h.i.j", "true")}},
		"operator in lower case": {AdvancedFilters: []AdvancedFilter{single("numbergreaterthan", "k", "1")}},
		"operator with spaces":   {AdvancedFilters: []AdvancedFilter{single(" StringIn ", "k", `"a"`)}},
		"empty string value":     {AdvancedFilters: []AdvancedFilter{multi("StringIn", "k", `[""]`)}},
		"quote in string value":  {AdvancedFilters: []AdvancedFilter{multi("StringContains", "dAt\"A.a", `["\"","c"]`)}},
		"bool as string":         {AdvancedFilters: []AdvancedFilter{single("BoolEquals", "k", `"TRUE"`)}},
		"whitespace around JSON": {AdvancedFilters: []AdvancedFilter{multi("NumberIn", "k", " [ 1 , 2 ] ")}},
		"subject only":           {SubjectBeginsWith: "a", SubjectEndsWith: "b"},
	}
	for name, spec := range tests {
		t.Run(name, func(t *testing.T) {
			if _, err := Compile(spec); err != nil {
				t.Fatalf("Compile: %v", err)
			}
		})
	}
}

// TestOperandLeniency checks where operands are read from, by their effect.
func TestOperandLeniency(t *testing.T) {
	tests := map[string]struct {
		filter AdvancedFilter
		event  string
		want   bool
	}{
		"single op reads one-element values": {multi("NumberGreaterThan", "k", "[5]"), `{"k":6}`, true},
		"single op one-element values miss":  {multi("NumberGreaterThan", "k", "[5]"), `{"k":5}`, false},
		"single op reads scalar values":      {multi("NumberLessThan", "k", "5"), `{"k":4}`, true},
		"multi op scalar values (2018 docs)": {multi("NumberIn", "k", "5"), `{"k":5}`, true},
		"multi op scalar values miss":        {multi("NumberIn", "k", "5"), `{"k":6}`, false},
		"multi op reads value":               {single("StringIn", "k", `"a"`), `{"k":"A"}`, true},
		"multi op reads value array":         {single("StringIn", "k", `["x","a"]`), `{"k":"A"}`, true},
		"own property wins (single)": {AdvancedFilter{OperatorType: "NumberGreaterThan", Key: "k",
			Value: json.RawMessage("5"), Values: json.RawMessage("[100]")}, `{"k":6}`, true},
		"own property wins (multi)": {AdvancedFilter{OperatorType: "StringIn", Key: "k",
			Value: json.RawMessage(`"b"`), Values: json.RawMessage(`["a"]`)}, `{"k":"a"}`, true},
		"null own property falls back": {AdvancedFilter{OperatorType: "StringIn", Key: "k",
			Value: json.RawMessage(`"a"`), Values: json.RawMessage(`null`)}, `{"k":"a"}`, true},
		"bool from string True":  {single("BoolEquals", "k", `"True"`), `{"k":true}`, true},
		"bool from string false": {single("BoolEquals", "k", `"false"`), `{"k":true}`, false},
		"bool from values":       {multi("BoolEquals", "k", `[false]`), `{"k":false}`, true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := matchRaw(t, tc.filter, tc.event); got != tc.want {
				t.Errorf("match = %v, want %v", got, tc.want)
			}
		})
	}
}
