package resource

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/edgegrid/edgegrid/filter"
)

// decodeFilter builds a filter.Spec and compiles it once so errors name the
// property. Array parts may come as JSON-encoded strings (module twin form).
func decodeFilter(fb *filterBody) (*filter.Spec, error) {
	if fb == nil {
		return nil, nil
	}
	spec := &filter.Spec{SubjectBeginsWith: fb.SubjectBeginsWith.Value, SubjectEndsWith: fb.SubjectEndsWith.Value,
		IsSubjectCaseSensitive: fb.IsSubjectCaseSensitive.Value}
	switch {
	case fb.SubjectBeginsWith.Bad:
		return nil, filterError("SubjectBeginsWith must be a string.")
	case fb.SubjectEndsWith.Bad:
		return nil, filterError("SubjectEndsWith must be a string.")
	case fb.IsSubjectCaseSensitive.Bad:
		return nil, filterError("IsSubjectCaseSensitive must be true or false.")
	}
	types := fb.IncludedEventTypes
	if isNull(types) {
		types = fb.EventTypes
	}
	if !isNull(types) {
		inner, ok := unwrapStringJSON(types)
		if !ok || json.Unmarshal(inner, &spec.IncludedEventTypes) != nil {
			return nil, filterError("IncludedEventTypes must be an array of strings.")
		}
	}
	afs, err := decodeAdvanced(fb.AdvancedFilters)
	if err != nil {
		return nil, err
	}
	spec.AdvancedFilters = afs
	if _, err := filter.Compile(*spec); err != nil {
		var fe *filter.Error
		if errors.As(err, &fe) {
			return nil, filterError(fmt.Sprintf("%s: %s", fe.Field, fe.Message))
		}
		return nil, filterError(err.Error())
	}
	return spec, nil
}

func decodeAdvanced(raw json.RawMessage) ([]filter.AdvancedFilter, error) {
	if isNull(raw) {
		return nil, nil
	}
	inner, ok := unwrapStringJSON(raw)
	var bodies []advancedFilterBody
	if !ok || json.Unmarshal(inner, &bodies) != nil {
		return nil, filterError("AdvancedFilters must be an array of {operatorType, key, value|values}.")
	}
	out := make([]filter.AdvancedFilter, 0, len(bodies))
	for i, b := range bodies {
		op := b.OperatorType
		if !op.Set {
			op = b.Operator
		}
		if op.Bad || b.Key.Bad {
			return nil, filterError(fmt.Sprintf("AdvancedFilters[%d]: operatorType and key must be strings.", i))
		}
		out = append(out, filter.AdvancedFilter{OperatorType: op.Value, Key: b.Key.Value, Value: nullToNil(b.Value), Values: nullToNil(b.Values)})
	}
	return out, nil
}

func nullToNil(raw json.RawMessage) json.RawMessage {
	if isNull(raw) {
		return nil
	}
	return raw
}

func filterError(msg string) *Error {
	return &Error{Code: CodeInvalidFilter, Message: "EventSubscription.Properties.Filter failed validation: " + msg}
}
