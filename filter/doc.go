// Package filter compiles and evaluates Event Grid on IoT Edge subscription
// filters. A filter is compiled once, when a subscription is created or
// updated (Compile validates everything and returns an *Error naming the
// offending field), and evaluated for every published event (Match, which
// allocates nothing and never panics, whatever bytes the event holds).
//
// # Parts
//
// A filter has four optional parts; every part present must pass (AND):
//
//   - includedEventTypes: the event passes when its event type equals one of
//     the listed values, compared case-insensitively with Unicode simple
//     folding (strings.EqualFold). A list holding "all" or "*" (any case), an
//     empty list and an absent list all mean every type. Empty strings are an
//     error, and so are more than 100 entries.
//   - subjectBeginsWith / subjectEndsWith: literal prefix / suffix of the
//     subject. There are no wildcards and no regular expressions ("^" and "$"
//     are ordinary characters). Comparison is case-insensitive (simple
//     folding, rune by rune) unless isSubjectCaseSensitive is true, in which
//     case it is byte for byte. An empty string sets no constraint.
//   - advancedFilters: a list of at most 25 conditions, all of which must
//     pass.
//
// # Advanced filters
//
// Each advanced filter has an operatorType (matched case-insensitively), a key
// and its operand(s):
//
//	NumberGreaterThan, NumberGreaterThanOrEquals,
//	NumberLessThan, NumberLessThanOrEquals      one JSON number ("value")
//	NumberIn, NumberNotIn                       JSON numbers ("values")
//	BoolEquals                                  one JSON boolean ("value");
//	                                            the strings "true"/"false" in
//	                                            any case are accepted too
//	StringIn, StringNotIn, StringBeginsWith,
//	StringEndsWith, StringContains              JSON strings ("values")
//
// Where the operands are read from is lenient: a single-value operator reads
// "value", or else "values" when that holds exactly one element (or is a bare
// scalar); a multi-value operator reads "values", or else "value". A bare
// scalar where a list is expected counts as a one-element list (the 2018
// cloud documentation wrote "Values": 5). When both are present, the
// operator's own property is used and the other is ignored. A JSON null is
// treated as absent. Lists hold 1 to 25 values; a string value holds at most
// 512 characters (Unicode code points). Empty strings are allowed.
//
// Multi-value operators are OR across their values, except NumberNotIn and
// StringNotIn, which require the event value to differ from every listed
// value (AND).
//
// Numbers are compared exactly as decimals, as the original's .NET decimal
// did, without binary floating point: 1.456 equals 1.4560, 9007199254740993
// differs from 9007199254740992, 1e2 equals 100 and -0 equals 0. Unlike .NET
// decimal there is no 28-digit or 7.9e28 range limit; only numbers whose
// exponent has more than 18 digits are out of range (a compile error in a
// filter, a type mismatch in an event).
//
// String comparisons are always case-insensitive (simple folding, rune by
// rune; there is no option): StringIn and StringNotIn test folded equality,
// StringBeginsWith, StringEndsWith and StringContains test a folded prefix,
// suffix or substring. An empty value matches every string for BeginsWith,
// EndsWith and Contains.
//
// # Keys and event values
//
// A key is a top-level property name or a dotted path such as
// "Data.P1.P2.P3.P4.P5": each dot steps into a nested JSON object. There is no
// escaping, so a property whose name contains a dot cannot be addressed, and
// "$" has no special meaning. Keys are non-empty, at most 256 characters and
// 10 segments, with no empty segment. Each segment matches an object member
// case-insensitively ("Data.Key1" finds "data" then "key1"); an exact-case
// member is preferred over a case-insensitive one, and among duplicates the
// last wins, as in encoding/json. Lookup exposes this resolution.
//
// The event value found at the key decides the outcome:
//
//   - array: every operator fails (filtering on arrays is not supported);
//   - missing key or JSON null: NumberNotIn and StringNotIn pass, every other
//     operator fails;
//   - wrong type (a number operator on a string, a string operator on a
//     number, BoolEquals on a string, anything on an object): every operator
//     fails, NotIn included.
//
// Lookup checks the structure of the objects along the key path and the
// scalar it returns; member names and the values it steps over are only
// delimited (the broker validated the event as JSON already). Malformed event
// bytes never cause a panic: a path that cannot be walked is a missing key.
package filter
