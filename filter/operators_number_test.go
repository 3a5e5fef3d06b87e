package filter

import "testing"

func TestNumberOperators(t *testing.T) {
	deep := `{"Data":{"Prop1":{"Prop2":{"Prop3":{"Prop4":{"Prop5":42}}}}}}`
	tests := map[string]struct {
		filter AdvancedFilter
		event  string
		want   bool
	}{
		"GreaterThan above":         {single("NumberGreaterThan", "n", "5"), `{"n":5.0000001}`, true},
		"GreaterThan equal":         {single("NumberGreaterThan", "n", "5"), `{"n":5.000}`, false},
		"GreaterThan negative":      {single("NumberGreaterThan", "n", "-5"), `{"n":-4.9}`, true},
		"GreaterThanOrEquals equal": {single("NumberGreaterThanOrEquals", "n", "5"), `{"n":5e0}`, true},
		"GreaterThanOrEquals below": {single("NumberGreaterThanOrEquals", "n", "5"), `{"n":4.99}`, false},
		"LessThan below":            {single("NumberLessThan", "n", "0"), `{"n":-0.0001}`, true},
		"LessThan -0 vs 0":          {single("NumberLessThan", "n", "0"), `{"n":-0}`, false},
		"LessThanOrEquals -0 vs 0":  {single("NumberLessThanOrEquals", "n", "0"), `{"n":-0.0}`, true},
		"LessThanOrEquals above":    {single("NumberLessThanOrEquals", "n", "1e2"), `{"n":100.1}`, false},
		"LessThanOrEquals exponent": {single("NumberLessThanOrEquals", "n", "1e2"), `{"n":100}`, true},
		"big integers differ":       {single("NumberGreaterThan", "n", "9007199254740992"), `{"n":9007199254740993}`, true},
		"In first":                  {multi("NumberIn", "n", "[1,2,3]"), `{"n":1}`, true},
		"In last, other form":       {multi("NumberIn", "n", "[1,2,3]"), `{"n":3.0e0}`, true},
		"In none":                   {multi("NumberIn", "n", "[1,2,3]"), `{"n":4}`, false},
		"NotIn differs from all":    {multi("NumberNotIn", "n", "[1,2,3]"), `{"n":4}`, true},
		"NotIn equals one":          {multi("NumberNotIn", "n", "[1,2,3]"), `{"n":2}`, false},
		"NotIn equals last":         {multi("NumberNotIn", "n", "[1,2,3]"), `{"n":30e-1}`, false},
		"nested 5 levels":           {single("NumberGreaterThan", "Data.Prop1.Prop2.Prop3.Prop4.Prop5", "41"), deep, true},
		"nested 5 levels, any case": {single("NumberIn", "data.PROP1.prop2.Prop3.prop4.PROP5", "42"), deep, true},
		"nested path too short":     {single("NumberGreaterThan", "Data.Prop1.Prop2.Prop3.Prop4", "41"), deep, false},
		"nested path too long":      {single("NumberGreaterThan", "Data.Prop1.Prop2.Prop3.Prop4.Prop5.x", "41"), deep, false},
		"number in a string fails":  {single("NumberGreaterThan", "n", "5"), `{"n":"6"}`, false},
		"NotIn on a string fails":   {multi("NumberNotIn", "n", "[5]"), `{"n":"6"}`, false},
		"NotIn on a bool fails":     {multi("NumberNotIn", "n", "[5]"), `{"n":true}`, false},
		"NotIn on an object fails":  {multi("NumberNotIn", "n", "[5]"), `{"n":{"a":6}}`, false},
		"array fails":               {multi("NumberIn", "n", "[5]"), `{"n":[5]}`, false},
		"NotIn on an array fails":   {multi("NumberNotIn", "n", "[5]"), `{"n":[6]}`, false},
		"missing key fails":         {single("NumberLessThan", "n", "5"), `{"m":1}`, false},
		"null fails":                {single("NumberLessThan", "n", "5"), `{"n":null}`, false},
		"In on missing key fails":   {multi("NumberIn", "n", "[5]"), `{}`, false},
		"NotIn on missing key":      {multi("NumberNotIn", "n", "[5]"), `{}`, true},
		"NotIn on null":             {multi("NumberNotIn", "n", "[5]"), `{"n":null}`, true},
		"NotIn on missing nested":   {multi("NumberNotIn", "a.b", "[5]"), `{"a":{}}`, true},
		"NotIn, parent not object":  {multi("NumberNotIn", "a.b", "[5]"), `{"a":1}`, true},
		"huge exponent event fails": {multi("NumberNotIn", "n", "[5]"), `{"n":1e1234567890123456789}`, false},
		"large exponent in range":   {single("NumberGreaterThan", "n", "1e999999999999999998"), `{"n":1e999999999999999999}`, true},
		"key is case-insensitive":   {single("NumberGreaterThan", "ID", "1"), `{"id":2}`, true},
		"exact case preferred":      {single("NumberGreaterThan", "Id", "1"), `{"id":2,"Id":0,"ID":3}`, false},
		"dollar has no meaning":     {single("NumberGreaterThan", "$.n", "1"), `{"$":{"n":2}}`, true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := matchRaw(t, tc.filter, tc.event); got != tc.want {
				t.Errorf("match = %v, want %v", got, tc.want)
			}
		})
	}
}
