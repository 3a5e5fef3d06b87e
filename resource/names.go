package resource

import "strings"

// MaxNameLength bounds topic and subscription names.
const MaxNameLength = 128

// ValidateName checks a topic or subscription name: 1 to 128 characters from
// A-Z, a-z, 0-9, '-' and '_'. The original documented no rule; every documented
// example fits this one, and it keeps names safe in URLs, edgeHub routes and logs.
func ValidateName(kind, name string) error {
	if name == "" {
		return invalid(CodeInvalidName, "%s name must not be empty.", kind)
	}
	if len(name) > MaxNameLength {
		return invalid(CodeInvalidName, "%s name '%.40s...' is %d characters long; at most %d are allowed.", kind, name, len(name), MaxNameLength)
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return invalid(CodeInvalidName, "%s name '%s' is invalid: only letters, digits, '-' and '_' are allowed.", kind, name)
		}
	}
	return nil
}

// checkBodyName enforces "optional, inferred from URL; if specified must match".
func checkBodyName(kind string, body flexString, url string) error {
	if !body.Set {
		return nil
	}
	if body.Bad {
		return invalid(CodeInvalidName, "%s.Name must be a string.", kind)
	}
	if !strings.EqualFold(body.Value, url) {
		return invalid(CodeInvalidName, "%s.Name '%s' in the request body does not match the name '%s' in the request URL.", kind, body.Value, url)
	}
	return nil
}
