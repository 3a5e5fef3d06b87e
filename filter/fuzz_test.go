package filter

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"strconv"
	"strings"
	"testing"
)

// decodeAny decodes raw with encoding/json, keeping number literals.
func decodeAny(raw []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	return v, true
}

// kindOf returns the Kind of a value decoded by decodeAny.
func kindOf(v any) Kind {
	switch v.(type) {
	case nil:
		return Null
	case string:
		return String
	case bool:
		return Bool
	case json.Number:
		return Number
	case []any:
		return Array
	case map[string]any:
		return Object
	}
	return Invalid
}

// refLookup navigates a decoded event the way Lookup is specified to, as
// long as every step is unambiguous: it reports found=false for a missing
// path, and ok=false when some segment folds to several members (the
// member order that would decide is lost in a map).
func refLookup(v any, key string) (val any, found, ok bool) {
	for _, seg := range strings.Split(key, ".") {
		obj, isObj := v.(map[string]any)
		if !isObj || seg == "" {
			return nil, false, true
		}
		var matches []string
		for name := range obj {
			if strings.EqualFold(name, seg) {
				matches = append(matches, name)
			}
		}
		if len(matches) > 1 {
			return nil, false, false
		}
		if len(matches) == 0 {
			return nil, false, true
		}
		v = obj[matches[0]]
	}
	return v, true, true
}

func FuzzLookup(f *testing.F) {
	f.Add([]byte(`{"data":{"Key1":"v"}}`), "Data.Key1")
	f.Add([]byte(`{"a":"x\ny\u00e4\ud83d\ude00","A":1}`), "a")
	f.Add([]byte(`{"d\u0061ta":{"k":[1,{"x":"]"}],"s":"\ud800"}}`), "data.s")
	f.Add([]byte(`{"a":{"b":{"c":{"d":{"e":"deep"}}}}}`), "A.B.C.D.E")
	f.Add([]byte(`{"a":1,"a":"two"}`), "a")
	f.Add([]byte(` { "x" : null , "y" : [ ] } `), "y")
	f.Add([]byte("{\"a\":\"\xff\"}"), "a")
	f.Add([]byte(`{"a":{"b":1}`), "a.b")
	f.Fuzz(func(t *testing.T, raw []byte, key string) {
		v, found := Lookup(raw, key)
		s, isStr := v.Str()
		if found != (v.Kind != Invalid) || isStr != (v.Kind == String) {
			t.Fatalf("inconsistent result %v %q found=%v", v.Kind, v.Raw, found)
		}
		if !json.Valid(raw) {
			return
		}
		if found {
			if !json.Valid(v.Raw) {
				t.Fatalf("found invalid JSON %q", v.Raw)
			}
			want, _ := decodeAny(v.Raw)
			if kindOf(want) != v.Kind {
				t.Fatalf("kind %v, but encoding/json decodes %q as %T", v.Kind, v.Raw, want)
			}
			if isStr && s != want {
				t.Fatalf("Str() = %q, encoding/json decodes %q", s, want)
			}
		}
		doc, _ := decodeAny(raw)
		want, wantFound, ok := refLookup(doc, key)
		if !ok {
			return
		}
		if wantFound != found {
			t.Fatalf("Lookup found=%v, reference found=%v (%v)", found, wantFound, want)
		}
		if found && kindOf(want) != v.Kind {
			t.Fatalf("Lookup kind %v, reference %T", v.Kind, want)
		}
		if str, isString := want.(string); isString && str != s {
			t.Fatalf("Lookup string %q, reference %q", s, str)
		}
	})
}

// bigRat parses a number literal exactly, refusing exponents that would
// make math/big slow.
func bigRat(lit string) (*big.Rat, bool) {
	if i := strings.IndexAny(lit, "eE"); i >= 0 {
		e, err := strconv.Atoi(lit[i+1:])
		if err != nil || e > 2000 || e < -2000 {
			return nil, false
		}
	}
	return new(big.Rat).SetString(lit)
}

func FuzzDecimal(f *testing.F) {
	for _, seed := range [][2]string{
		{"1.456", "1.4560"}, {"1.456", "1.455"}, {"9007199254740993", "9007199254740992"},
		{"1e2", "100"}, {"-0", "0"}, {"1.5E+3", "1500"}, {"-0.001e-2", "-1e-5"}, {"0.0", "-0e9"},
		{"123456789012345678901234567890", "1.2345678901234567890123456789e29"}, {"01", "1"}, {"1e", "1."},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		da, okA := parseDecimal([]byte(a))
		db, okB := parseDecimal([]byte(b))
		for _, lit := range []struct {
			s  string
			ok bool
		}{{a, okA}, {b, okB}} {
			isNumber := len(lit.s) > 0 && (lit.s[0] == '-' || ('0' <= lit.s[0] && lit.s[0] <= '9')) &&
				strings.TrimSpace(lit.s) == lit.s && json.Valid([]byte(lit.s))
			if lit.ok != isNumber {
				if _, small := bigRat(lit.s); !lit.ok && isNumber && !small {
					continue // exponent out of range
				}
				t.Fatalf("parseDecimal(%q) ok=%v, but JSON number=%v", lit.s, lit.ok, isNumber)
			}
		}
		if okA {
			checkEquivalentForms(t, a, &da)
		}
		if !okA || !okB {
			return
		}
		got := compareDecimal(&da, &db)
		if back := compareDecimal(&db, &da); back != -got || compareDecimal(&da, &da) != 0 {
			t.Fatalf("compare(%s, %s) = %d but compare(%s, %s) = %d", a, b, got, b, a, back)
		}
		ra, okA := bigRat(a)
		rb, okB := bigRat(b)
		if !okA || !okB {
			return
		}
		if want := ra.Cmp(rb); got != want {
			t.Fatalf("compare(%s, %s) = %d, math/big says %d", a, b, got, want)
		}
	})
}

// checkEquivalentForms checks that rewritings of a parsed literal that keep
// its value (an added exponent, a trailing fraction zero) compare equal.
func checkEquivalentForms(t *testing.T, lit string, d *decimal) {
	t.Helper()
	var forms []string
	if !strings.ContainsAny(lit, "eE") {
		forms = append(forms, lit+"e0", lit+"E+00", lit+"e-0")
		if strings.Contains(lit, ".") {
			forms = append(forms, lit+"0", lit+"000e0")
		} else {
			forms = append(forms, lit+".0")
			if strings.TrimPrefix(lit, "-") != "0" {
				forms = append(forms, lit+"0e-1")
			}
		}
	}
	for _, form := range forms {
		e, ok := parseDecimal([]byte(form))
		if !ok || compareDecimal(d, &e) != 0 {
			t.Fatalf("%s and %s differ (parsed: %v)", lit, form, ok)
		}
	}
}

func FuzzCompile(f *testing.F) {
	f.Add("NumberIn", "Data.Key1", []byte(nil), []byte(`[1,10,100]`), []byte(`{"data":{"key1":10}}`))
	f.Add("NumberGreaterThanOrEquals", "data.k", []byte(`1.456`), []byte(nil), []byte(`{"data":{"k":1.4560}}`))
	f.Add("StringContains", "s", []byte(nil), []byte(`["microsoft","azure"]`), []byte(`{"s":"I love AZURE"}`))
	f.Add("StringEndsWith", "s", []byte(`"PNG"`), []byte(nil), []byte(`{"S":"a.png"}`))
	f.Add("StringNotIn", "a.b", []byte(nil), []byte(`["x"]`), []byte(`{"a":{"b":null}}`))
	f.Add("BoolEquals", "b", []byte(`"TRUE"`), []byte(`[false]`), []byte(`{"b":true}`))
	f.Add("NumberNotIn", "n", []byte(`5`), []byte(`{"x":1}`), []byte(`{"n":[5]}`))
	f.Add("stringbeginswith", "x", []byte(`null`), []byte(`"\u00c4"`), []byte(`{"x":"äpfel"}`))
	f.Fuzz(func(t *testing.T, op, key string, value, values, raw []byte) {
		a := AdvancedFilter{OperatorType: op, Key: key, Value: value, Values: values}
		if value == nil {
			a.Value = nil
		}
		filt, err := Compile(Spec{AdvancedFilters: []AdvancedFilter{a}, SubjectBeginsWith: key})
		if err != nil {
			var fe *Error
			if !errors.As(err, &fe) || !strings.HasPrefix(fe.Field, "advancedFilters[0].") || !strings.HasSuffix(fe.Message, ".") {
				t.Fatalf("Compile error %#v is not a well-formed *Error", err)
			}
			return
		}
		ev := &Event{Subject: string(raw), EventType: op, Raw: raw}
		got := filt.Match(ev)
		if got != filt.Match(ev) {
			t.Fatal("Match is not deterministic")
		}
		if want, ok := refMatch(a, raw); ok && want != filt.advanced[0].match(raw) {
			t.Fatalf("advanced match = %v, reference = %v for %+v on %q", !want, want, a, raw)
		}
	})
}
