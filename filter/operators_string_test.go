package filter

import (
	"strings"
	"testing"
)

func TestStringOperators(t *testing.T) {
	tests := map[string]struct {
		filter AdvancedFilter
		event  string
		want   bool
	}{
		"In folded":                      {multi("StringIn", "s", `["abc"]`), `{"s":"ABC"}`, true},
		"In non-ASCII folded":            {multi("StringIn", "s", `["ÄPFEL"]`), `{"s":"äpfel"}`, true},
		"In escaped event value":         {multi("StringIn", "s", `["äpfel"]`), `{"s":"\u00c4pfel"}`, true},
		"In surrogate pair escape":       {multi("StringIn", "s", `["😀"]`), `{"s":"\ud83d\ude00"}`, true},
		"In quote and backslash":         {multi("StringIn", "s", `["a\"b\\c"]`), `{"s":"A\"B\\C"}`, true},
		"In is not prefix":               {multi("StringIn", "s", `["abc"]`), `{"s":"abcd"}`, false},
		"In is not shorter":              {multi("StringIn", "s", `["abc"]`), `{"s":"ab"}`, false},
		"In empty string":                {multi("StringIn", "s", `[""]`), `{"s":""}`, true},
		"In empty string vs text":        {multi("StringIn", "s", `[""]`), `{"s":"a"}`, false},
		"In second value":                {multi("StringIn", "s", `["x","y"]`), `{"s":"Y"}`, true},
		"NotIn differs from all":         {multi("StringNotIn", "s", `["x","y"]`), `{"s":"z"}`, true},
		"NotIn equals one, folded":       {multi("StringNotIn", "s", `["x","y"]`), `{"s":"Y"}`, false},
		"NotIn missing key":              {multi("StringNotIn", "s", `["x"]`), `{}`, true},
		"NotIn null":                     {multi("StringNotIn", "s", `["x"]`), `{"s":null}`, true},
		"NotIn on number fails":          {multi("StringNotIn", "s", `["x"]`), `{"s":5}`, false},
		"NotIn on array fails":           {multi("StringNotIn", "s", `["x"]`), `{"s":["y"]}`, false},
		"BeginsWith":                     {multi("StringBeginsWith", "s", `["ab"]`), `{"s":"ABC"}`, true},
		"BeginsWith miss":                {multi("StringBeginsWith", "s", `["bc"]`), `{"s":"ABC"}`, false},
		"BeginsWith longer than value":   {multi("StringBeginsWith", "s", `["abcd"]`), `{"s":"abc"}`, false},
		"BeginsWith empty value":         {multi("StringBeginsWith", "s", `[""]`), `{"s":"abc"}`, true},
		"BeginsWith escaped":             {multi("StringBeginsWith", "s", `["a/b"]`), `{"s":"a\/b\/c"}`, true},
		"EndsWith":                       {multi("StringEndsWith", "s", `["JPG"]`), `{"s":"a.jpg"}`, true},
		"EndsWith whole value":           {multi("StringEndsWith", "s", `["a.jpg"]`), `{"s":"A.JPG"}`, true},
		"EndsWith longer than value":     {multi("StringEndsWith", "s", `["xa.jpg"]`), `{"s":"a.jpg"}`, false},
		"EndsWith non-ASCII":             {multi("StringEndsWith", "s", `["ß"]`), `{"s":"STRAẞ"}`, true},
		"EndsWith Kelvin sign":           {multi("StringEndsWith", "s", `["k"]`), `{"s":"5\u212a"}`, true},
		"EndsWith on long value":         {multi("StringEndsWith", "s", `["end"]`), `{"s":"` + strings.Repeat("x", 2000) + `END"}`, true},
		"EndsWith on long value miss":    {multi("StringEndsWith", "s", `["end"]`), `{"s":"` + strings.Repeat("x", 2000) + `"}`, false},
		"EndsWith empty value":           {multi("StringEndsWith", "s", `[""]`), `{"s":""}`, true},
		"Contains middle":                {multi("StringContains", "s", `["LOVE"]`), `{"s":"I love azure"}`, true},
		"Contains overlapping prefix":    {multi("StringContains", "s", `["aab"]`), `{"s":"aaab"}`, true},
		"Contains needs backtracking":    {multi("StringContains", "s", `["abab"]`), `{"s":"abaabab"}`, true},
		"Contains miss":                  {multi("StringContains", "s", `["abab"]`), `{"s":"abaaba"}`, false},
		"Contains escaped newline":       {multi("StringContains", "s", "[\"a\\nb\"]"), `{"s":"xA\nBx"}`, true},
		"Contains quote (twin example)":  {multi("StringContains", "dAt\"A.a", `["\"","c"]`), `{"dat\"a":{"a":"say \"hi\""}}`, true},
		"Contains empty value":           {multi("StringContains", "s", `["zz",""]`), `{"s":"abc"}`, true},
		"Contains longer than value":     {multi("StringContains", "s", `["abcd"]`), `{"s":"abc"}`, false},
		"string operator on number":      {multi("StringIn", "s", `["5"]`), `{"s":5}`, false},
		"string operator on bool":        {multi("StringIn", "s", `["true"]`), `{"s":true}`, false},
		"string operator on object":      {multi("StringContains", "s", `["a"]`), `{"s":{"a":"a"}}`, false},
		"string operator on array":       {multi("StringContains", "s", `["a"]`), `{"s":["a"]}`, false},
		"string operator on missing key": {multi("StringBeginsWith", "s", `["a"]`), `{"t":"a"}`, false},
		"string operator on null":        {multi("StringEndsWith", "s", `["a"]`), `{"s":null}`, false},
		"nested key":                     {multi("StringIn", "Data.a.b.c.d", `["x"]`), `{"data":{"A":{"b":{"C":{"d":"X"}}}}}`, true},
		"escaped member name":            {multi("StringIn", "Data.Key", `["x"]`), `{"d\u0061ta":{"k\u0065y":"x"}}`, true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := matchRaw(t, tc.filter, tc.event); got != tc.want {
				t.Errorf("match = %v, want %v", got, tc.want)
			}
		})
	}
}
