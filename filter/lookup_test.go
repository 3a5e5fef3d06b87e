package filter

import (
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 9) + `"bottom"` + strings.Repeat("}", 9)
	deepNoise := `{"noise":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `,"k":1}`
	tests := map[string]struct {
		raw, key string
		kind     Kind
		rawValue string // expected Value.Raw; "" means not found
	}{
		"top-level string":       {`{"a":"x"}`, "a", String, `"x"`},
		"number":                 {`{"a":-1.5e3}`, "a", Number, `-1.5e3`},
		"true":                   {`{"a":true}`, "a", Bool, `true`},
		"false":                  {`{"a":false}`, "a", Bool, `false`},
		"null":                   {`{"a":null}`, "a", Null, `null`},
		"object":                 {`{"a":{"b":[1,"}"]}}`, "a", Object, `{"b":[1,"}"]}`},
		"array":                  {`{"a":[1,{"x":"]"}]}`, "a", Array, `[1,{"x":"]"}]`},
		"nested":                 {`{"a":{"b":{"c":3}}}`, "a.b.c", Number, `3`},
		"deeply nested (9)":      {deep, "a.a.a.a.a.a.a.a.a", String, `"bottom"`},
		"skips deep noise":       {deepNoise, "k", Number, `1`},
		"last member":            {`{"x":1,"y":2,"z":3}`, "z", Number, `3`},
		"whitespace everywhere":  {" \n{ \"a\" :\t{ \"b\"\r\n: 7 } , \"c\":1 } ", "a.b", Number, `7`},
		"case-insensitive":       {`{"Data":{"KEY1":5}}`, "data.key1", Number, `5`},
		"exact case preferred":   {`{"id":1,"ID":2,"Id":3}`, "ID", Number, `2`},
		"exact case, first":      {`{"ID":2,"id":1}`, "ID", Number, `2`},
		"duplicates: last wins":  {`{"a":1,"a":2}`, "a", Number, `2`},
		"folded dup: last wins":  {`{"A":1,"a":2}`, "a", Number, `2`},
		"exact beats later fold": {`{"a":1,"A":2}`, "a", Number, `1`},
		"escaped key":            {`{"d\u0061ta":{"\"q\"":1}}`, "data.\"q\"", Number, `1`},
		"escaped key folded":     {`{"\u00c4":1}`, "ä", Number, `1`},
		"surrogate key":          {`{"\ud83d\ude00":1}`, "😀", Number, `1`},
		"key with dollar":        {`{"$":1}`, "$", Number, `1`},
		"empty member name":      {`{"":1,"a":2}`, "a", Number, `2`},
		"escapes kept in Raw":    {`{"a":"x\ny\u0041"}`, "a", String, `"x\ny\u0041"`},
		"skipped value lenient":  {`{"a":tru,"b":2}`, "b", Number, `2`},
		"skipped name lenient":   {`{"a\q":1,"b":2}`, "b", Number, `2`},
		"missing":                {`{"a":1}`, "b", Invalid, ""},
		"missing nested":         {`{"a":{"b":1}}`, "a.c", Invalid, ""},
		"through a non-object":   {`{"a":[{"b":1}]}`, "a.b", Invalid, ""},
		"through a string":       {`{"a":"{\"b\":1}"}`, "a.b", Invalid, ""},
		"no prefix matching":     {`{"abc":1}`, "ab", Invalid, ""},
		"no longer matching":     {`{"ab":1}`, "abc", Invalid, ""},
		"empty key":              {`{"":1}`, "", Invalid, ""},
		"empty segment":          {`{"a":{"":{"b":1}}}`, "a..b", Invalid, ""},
		"trailing dot":           {`{"a":{"":1}}`, "a.", Invalid, ""},
		"empty object":           {`{}`, "a", Invalid, ""},
		"top-level array":        {`[{"a":1}]`, "a", Invalid, ""},
		"top-level JSON string":  {`"a"`, "a", Invalid, ""},
		"empty input":            {``, "a", Invalid, ""},
		"unterminated object":    {`{"a":1`, "a", Invalid, ""},
		"unterminated string":    {`{"a":"x}`, "a", Invalid, ""},
		"missing colon":          {`{"a" 1}`, "a", Invalid, ""},
		"missing comma":          {`{"a":1 "b":2}`, "a", Invalid, ""},
		"trailing comma":         {`{"a":1,}`, "a", Invalid, ""},
		"bad literal":            {`{"a":tru}`, "a", Invalid, ""},
		"bad number":             {`{"a":01}`, "a", Invalid, ""},
		"bad escape":             {`{"a":"\x"}`, "a", Invalid, ""},
		"short unicode escape":   {`{"a":"\u12"}`, "a", Invalid, ""},
		"control character":      {"{\"a\":\"x\ny\"}", "a", Invalid, ""},
		"unquoted name":          {`{a:1}`, "a", Invalid, ""},
		"malformed later member": {`{"a":1,"b":}`, "a", Invalid, ""},
		"unbalanced container":   {`{"a":{"b":1}`, "a.b", Invalid, ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			v, ok := Lookup([]byte(tc.raw), tc.key)
			if tc.rawValue == "" {
				if ok {
					t.Fatalf("Lookup found %v %q, want not found", v.Kind, v.Raw)
				}
				return
			}
			if !ok || v.Kind != tc.kind || string(v.Raw) != tc.rawValue {
				t.Fatalf("Lookup = %v %q %v; want %v %q", v.Kind, v.Raw, ok, tc.kind, tc.rawValue)
			}
			if cap(v.Raw) != len(v.Raw) {
				t.Errorf("Raw capacity %d exceeds its length %d", cap(v.Raw), len(v.Raw))
			}
		})
	}
}

func TestValueStr(t *testing.T) {
	tests := map[string]struct {
		raw    string
		want   string
		wantOK bool
	}{
		"plain":            {`"abc"`, "abc", true},
		"empty":            {`""`, "", true},
		"simple escapes":   {`"a\"b\\c\/d\b\f\n\r\t"`, "a\"b\\c/d\b\f\n\r\t", true},
		"unicode escape":   {`"\u00e4\u00C4"`, "äÄ", true},
		"surrogate pair":   {`"\ud83d\ude00!"`, "😀!", true},
		"lone high":        {`"\ud83dx"`, "\uFFFDx", true},
		"lone low":         {`"\ude00x"`, "\uFFFDx", true},
		"high then high":   {`"\ud83d\ud83d\ude00"`, "\uFFFD😀", true},
		"invalid UTF-8":    {"\"a\xffb\"", "a\uFFFDb", true},
		"raw non-ASCII":    {`"äpfel"`, "äpfel", true},
		"NUL escape":       {`"\u0000"`, "\x00", true},
		"no closing quote": {`"abc`, "", false},
		"not a string":     {`12`, "", false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			kind := String
			if !strings.HasPrefix(tc.raw, `"`) {
				kind = Number
			}
			got, ok := Value{Kind: kind, Raw: []byte(tc.raw)}.Str()
			if got != tc.want || ok != tc.wantOK {
				t.Errorf("Str() = %q, %v; want %q, %v", got, ok, tc.want, tc.wantOK)
			}
		})
	}
	if _, ok := (Value{}).Str(); ok {
		t.Error("zero Value.Str() reported a string")
	}
	if _, ok := (Value{Kind: Number, Raw: []byte(`"x"`)}).Str(); ok {
		t.Error("Str() on a Number reported a string")
	}
}

func TestValueStrAllocations(t *testing.T) {
	raw := []byte(`{"plain":"some plain text","esc":"tab\there"}`)
	plain, _ := Lookup(raw, "plain")
	if n := testing.AllocsPerRun(100, func() { sinkString, _ = plain.Str() }); n != 0 {
		t.Errorf("Str() without escapes allocated %.0f times", n)
	}
	esc, _ := Lookup(raw, "esc")
	if n := testing.AllocsPerRun(100, func() { sinkString, _ = esc.Str() }); n > 1 {
		t.Errorf("Str() with escapes allocated %.0f times, want at most 1", n)
	}
}

func TestKindString(t *testing.T) {
	want := map[Kind]string{Invalid: "invalid", String: "string", Number: "number", Bool: "boolean",
		Null: "null", Object: "object", Array: "array", Kind(200): "invalid"}
	for k, name := range want {
		if k.String() != name {
			t.Errorf("Kind(%d).String() = %q, want %q", k, k.String(), name)
		}
	}
}
