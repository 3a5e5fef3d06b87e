package filter

import "encoding/json"

// compileNumbers checks that every operand of a Number* operator is a JSON
// number and parses it for exact decimal comparison.
func compileNumbers(elems []element, opName string) ([]decimal, *Error) {
	nums := make([]decimal, len(elems))
	for i, e := range elems {
		lit, ok := e.val.(json.Number)
		if !ok {
			return nil, numberTypeError(e, opName)
		}
		d, ok := parseDecimal([]byte(lit))
		if !ok {
			return nil, errorf(e.field, "The number %s is out of range; exponents may have at most %d digits.",
				lit, maxExpDigits)
		}
		nums[i] = d
	}
	return nums, nil
}

// numberTypeError explains a non-number operand, with a hint for quoted
// numbers.
func numberTypeError(e element, opName string) *Error {
	if s, ok := e.val.(string); ok {
		if _, isNum := parseDecimal([]byte(s)); isNum {
			return errorf(e.field, "%s needs JSON numbers, but this value is the string %q; write it without quotes.",
				opName, s)
		}
	}
	return errorf(e.field, "%s needs JSON numbers, but this value is %s.", opName, describe(e.val))
}

// matchNumber applies a Number* operator to an event value. Anything but a
// parseable number fails, NotIn included.
func (f *advancedFilter) matchNumber(v Value) bool {
	if v.Kind != Number {
		return false
	}
	d, ok := parseDecimal(v.Raw)
	if !ok {
		return false
	}
	switch f.op {
	case opNumberGreaterThan:
		return compareDecimal(&d, &f.nums[0]) > 0
	case opNumberGreaterThanOrEquals:
		return compareDecimal(&d, &f.nums[0]) >= 0
	case opNumberLessThan:
		return compareDecimal(&d, &f.nums[0]) < 0
	case opNumberLessThanOrEquals:
		return compareDecimal(&d, &f.nums[0]) <= 0
	case opNumberIn:
		return f.anyNumberEqual(&d)
	case opNumberNotIn:
		return !f.anyNumberEqual(&d)
	}
	return false
}

// anyNumberEqual reports whether d equals one of the filter's numbers.
func (f *advancedFilter) anyNumberEqual(d *decimal) bool {
	for i := range f.nums {
		if compareDecimal(d, &f.nums[i]) == 0 {
			return true
		}
	}
	return false
}
