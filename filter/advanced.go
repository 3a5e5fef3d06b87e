package filter

import (
	"encoding/json"
	"strings"
)

// AdvancedFilter is one element of advancedFilters. Value and Values hold the
// raw JSON of the "value" / "values" properties exactly as given (nil when the
// property was absent).
type AdvancedFilter struct {
	OperatorType string
	Key          string
	Value        json.RawMessage
	Values       json.RawMessage
}

// operator identifies one of the twelve advanced-filter operators.
type operator uint8

const (
	opNumberGreaterThan operator = iota
	opNumberGreaterThanOrEquals
	opNumberLessThan
	opNumberLessThanOrEquals
	opNumberIn
	opNumberNotIn
	opBoolEquals
	opStringIn
	opStringNotIn
	opStringBeginsWith
	opStringEndsWith
	opStringContains
)

// operandType is the JSON type an operator's values must have.
type operandType uint8

const (
	numberOperand operandType = iota
	boolOperand
	stringOperand
)

// operatorInfo describes an operator: its canonical name, its operand type
// and whether it takes a list of values.
type operatorInfo struct {
	name  string
	typ   operandType
	multi bool
}

// operators is indexed by operator; its order is the order used in messages.
var operators = [...]operatorInfo{
	opNumberGreaterThan:         {"NumberGreaterThan", numberOperand, false},
	opNumberGreaterThanOrEquals: {"NumberGreaterThanOrEquals", numberOperand, false},
	opNumberLessThan:            {"NumberLessThan", numberOperand, false},
	opNumberLessThanOrEquals:    {"NumberLessThanOrEquals", numberOperand, false},
	opNumberIn:                  {"NumberIn", numberOperand, true},
	opNumberNotIn:               {"NumberNotIn", numberOperand, true},
	opBoolEquals:                {"BoolEquals", boolOperand, false},
	opStringIn:                  {"StringIn", stringOperand, true},
	opStringNotIn:               {"StringNotIn", stringOperand, true},
	opStringBeginsWith:          {"StringBeginsWith", stringOperand, true},
	opStringEndsWith:            {"StringEndsWith", stringOperand, true},
	opStringContains:            {"StringContains", stringOperand, true},
}

// parseOperator finds an operator by name, case-insensitively.
func parseOperator(name string) (operator, bool) {
	for op, info := range operators {
		if strings.EqualFold(name, info.name) {
			return operator(op), true
		}
	}
	return 0, false
}

// String returns the operator's canonical name.
func (op operator) String() string { return operators[op].name }

// operatorList is the comma-separated list of supported operator names.
func operatorList() string {
	names := make([]string, len(operators))
	for i, info := range operators {
		names[i] = info.name
	}
	return strings.Join(names, ", ")
}

// advancedFilter is a compiled AdvancedFilter. Exactly one of nums, strs and
// boolean is meaningful, depending on the operator's operand type.
type advancedFilter struct {
	op      operator
	key     string
	nums    []decimal
	strs    []foldPattern
	boolean bool
}

// compileAdvanced validates and compiles advancedFilters[i].
func compileAdvanced(a AdvancedFilter, i int) (advancedFilter, *Error) {
	base := indexed("advancedFilters", i)
	name := strings.TrimSpace(a.OperatorType)
	if name == "" {
		return advancedFilter{}, errorf(base+".operatorType",
			"The operatorType is required; supported operators are %s.", operatorList())
	}
	op, ok := parseOperator(name)
	if !ok {
		return advancedFilter{}, errorf(base+".operatorType",
			"The operatorType %q is not supported; supported operators are %s.", a.OperatorType, operatorList())
	}
	if err := validateKey(a.Key, base+".key"); err != nil {
		return advancedFilter{}, err
	}
	elems, err := operands(a, operators[op], base)
	if err != nil {
		return advancedFilter{}, err
	}
	f := advancedFilter{op: op, key: a.Key}
	switch operators[op].typ {
	case numberOperand:
		f.nums, err = compileNumbers(elems, operators[op].name)
	case boolOperand:
		f.boolean, err = compileBool(elems[0], operators[op].name)
	default:
		f.strs, err = compileStrings(elems, op)
	}
	return f, err
}

// match evaluates the filter against the event bytes.
func (f *advancedFilter) match(raw []byte) bool {
	v, ok := Lookup(raw, f.key)
	if !ok || v.Kind == Null {
		return f.op == opNumberNotIn || f.op == opStringNotIn
	}
	switch operators[f.op].typ {
	case numberOperand:
		return f.matchNumber(v)
	case boolOperand:
		return f.matchBool(v)
	default:
		return f.matchString(v)
	}
}
