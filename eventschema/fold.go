package eventschema

import "strings"

// foldEqual compares with simple Unicode case folding, like encoding/json's
// case-insensitive field matching. The Kelvin sign and long s fold to k and s
// there too.
func foldEqual(a, b string) bool { return strings.EqualFold(a, b) }
