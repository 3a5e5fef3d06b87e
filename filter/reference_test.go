package filter

import (
	"encoding/json"
	"strings"
	"testing"
)

// refMatch evaluates advanced filter a (already accepted by Compile) with a
// slow reference built on encoding/json, math/big and strings.EqualFold,
// following the package documentation. ok is false when the reference cannot
// decide (invalid JSON, an ambiguous key, numbers too large for math/big).
func refMatch(a AdvancedFilter, raw []byte) (match, ok bool) {
	op, _ := parseOperator(strings.TrimSpace(a.OperatorType))
	elems, err := operands(a, operators[op], "")
	if err != nil || !json.Valid(raw) {
		return false, false
	}
	doc, _ := decodeAny(raw)
	v, found, ok := refLookup(doc, a.Key)
	if !ok {
		return false, false
	}
	if !found || v == nil {
		return op == opNumberNotIn || op == opStringNotIn, true
	}
	switch operators[op].typ {
	case numberOperand:
		return refNumber(op, elems, v)
	case boolOperand:
		b, isBool := v.(bool)
		want, isWantBool := elems[0].val.(bool)
		if !isWantBool {
			want = strings.EqualFold(elems[0].val.(string), "true")
		}
		return isBool && b == want, true
	}
	s, isStr := v.(string)
	return isStr && refString(op, elems, s), true
}

// refNumber compares with math/big.Rat.
func refNumber(op operator, elems []element, v any) (match, ok bool) {
	lit, isNum := v.(json.Number)
	if !isNum {
		return false, true
	}
	x, ok := bigRat(string(lit))
	if !ok {
		return false, false
	}
	in := false
	for _, e := range elems {
		y, ok := bigRat(string(e.val.(json.Number)))
		if !ok {
			return false, false
		}
		c := x.Cmp(y)
		switch op {
		case opNumberGreaterThan:
			return c > 0, true
		case opNumberGreaterThanOrEquals:
			return c >= 0, true
		case opNumberLessThan:
			return c < 0, true
		case opNumberLessThanOrEquals:
			return c <= 0, true
		}
		in = in || c == 0
	}
	return in == (op == opNumberIn), true
}

// refString applies a string operator with strings.EqualFold and a naive
// quadratic folded search.
func refString(op operator, elems []element, s string) bool {
	sr := []rune(s)
	hit := false
	for _, e := range elems {
		p := e.val.(string)
		pr := []rune(p)
		switch op {
		case opStringIn, opStringNotIn:
			hit = hit || strings.EqualFold(s, p)
		case opStringBeginsWith:
			hit = hit || len(pr) <= len(sr) && strings.EqualFold(string(sr[:len(pr)]), p)
		case opStringEndsWith:
			hit = hit || len(pr) <= len(sr) && strings.EqualFold(string(sr[len(sr)-len(pr):]), p)
		case opStringContains:
			hit = hit || naiveFoldIndex(sr, pr)
		}
	}
	return hit != (op == opStringNotIn)
}

// TestMatchAgreesWithReference runs every operator over a grid of operands
// and event values and compares Match with the reference evaluator.
func TestMatchAgreesWithReference(t *testing.T) {
	numberOperands := []string{`0`, `-0.5`, `1e2`, `[1, 2.50, 100]`, `9007199254740993`}
	stringOperands := []string{`""`, `"a"`, `["AB","ba"]`, `["ÄPFEL","\u212a"]`, `["x\"y"]`}
	boolOperands := []string{`true`, `false`, `"TRUE"`}
	eventValues := []string{`0`, `-0`, `-0.50`, `100`, `1E2`, `2.5`, `9007199254740992`, `9007199254740993`,
		`""`, `"a"`, `"AB"`, `"xaby"`, `"bab"`, `"äpfel"`, `"k"`, `"\u212a"`, `"X\"Y"`, `"ä\"x\"y"`,
		`true`, `false`, `null`, `[1]`, `["a"]`, `{"k":1}`}
	decided := 0
	for op, info := range operators {
		operands := stringOperands
		switch info.typ {
		case numberOperand:
			operands = numberOperands
		case boolOperand:
			operands = boolOperands
		}
		for _, operand := range operands {
			a := AdvancedFilter{OperatorType: info.name, Key: "Data.K", Values: []byte(operand)}
			if !info.multi {
				a = AdvancedFilter{OperatorType: info.name, Key: "Data.K", Value: []byte(operand)}
			}
			f, err := Compile(Spec{AdvancedFilters: []AdvancedFilter{a}})
			if err != nil {
				if !info.multi && operand[0] == '[' {
					continue // an array is not a single value
				}
				t.Fatalf("Compile(%s %s): %v", info.name, operand, err)
			}
			for _, ev := range append(eventValues, "missing") {
				raw := []byte(`{"data":{"k":` + ev + `}}`)
				if ev == "missing" {
					raw = []byte(`{"data":{"other":1}}`)
				}
				want, ok := refMatch(a, raw)
				if !ok {
					continue
				}
				decided++
				if got := f.Match(&Event{Raw: raw}); got != want {
					t.Errorf("%s %s on %s: Match = %v, reference = %v", operator(op), operand, raw, got, want)
				}
			}
		}
	}
	if decided < 1000 {
		t.Fatalf("the reference decided only %d cases", decided)
	}
}
