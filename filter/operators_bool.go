package filter

import "strings"

// compileBool reads the operand of BoolEquals: a JSON boolean, or the string
// "true" or "false" in any case, which the official api.md template implies
// ("Value": "...").
func compileBool(e element, opName string) (bool, *Error) {
	switch v := e.val.(type) {
	case bool:
		return v, nil
	case string:
		switch {
		case strings.EqualFold(v, "true"):
			return true, nil
		case strings.EqualFold(v, "false"):
			return false, nil
		}
		return false, errorf(e.field, "%s needs true or false, but this value is the string %q.", opName, v)
	}
	return false, errorf(e.field, "%s needs true or false, but this value is %s.", opName, describe(e.val))
}

// matchBool applies BoolEquals to an event value; anything but a JSON
// boolean fails.
func (f *advancedFilter) matchBool(v Value) bool {
	return v.Kind == Bool && len(v.Raw) > 0 && (v.Raw[0] == 't') == f.boolean
}
