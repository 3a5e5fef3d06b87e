package filter

import "testing"

func TestCompareDecimal(t *testing.T) {
	tests := map[string]struct {
		a, b string
		want int
	}{
		"equal integers":              {"100", "100", 0},
		"trailing fraction zeros":     {"1.456", "1.4560", 0},
		"differs in last digit":       {"1.456", "1.455", 1},
		"beyond float64 precision":    {"9007199254740993", "9007199254740992", 1},
		"beyond float64, fraction":    {"0.10000000000000000001", "0.1", 1},
		"exponent equals integer":     {"1e2", "100", 0},
		"upper-case signed exponent":  {"1.5E+3", "1500", 0},
		"negative exponent":           {"15e-1", "1.5", 0},
		"exponent with leading zeros": {"1e007", "10000000", 0},
		"minus zero equals zero":      {"-0", "0", 0},
		"zero forms":                  {"0.000e5", "-0e-7", 0},
		"zero below positive":         {"0", "0.0000001", -1},
		"zero above negative":         {"0", "-1e-300", 1},
		"negative vs positive":        {"-1", "1", -1},
		"negatives reverse":           {"-2", "-1", -1},
		"negatives equal":             {"-1.50", "-1.5", 0},
		"leading fraction zeros":      {"0.00123", "1.23e-3", 0},
		"small vs smaller":            {"0.001", "0.0009999", 1},
		"same digits, other scale":    {"123", "12.3", 1},
		"more digits after prefix":    {"1.2", "1.25", -1},
		"big exponents":               {"1e308", "1e309", -1},
		"huge exponents":              {"1e999999999999999999", "1e999999999999999998", 1},
		"huge negative exponents":     {"1e-999999999999999999", "1e-999999999999999998", -1},
		"huge exponent vs long value": {"1e30", "999999999999999999999999999999", 1},
		"long mantissas":              {"123456789012345678901234567890.5", "123456789012345678901234567890.50", 0},
		"long mantissas differ":       {"123456789012345678901234567890.5", "123456789012345678901234567890.4", 1},
		"dot inside significant":      {"10.01", "1001e-2", 0},
		"int zeros before dot":        {"100.5", "1005e-1", 0},
		"trailing int zeros":          {"1000", "1e3", 0},
		"decimal type max":            {"79228162514264337593543950335", "7.9228162514264337593543950335E+28", 0},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			a, okA := parseDecimal([]byte(tc.a))
			b, okB := parseDecimal([]byte(tc.b))
			if !okA || !okB {
				t.Fatalf("parse failed: %v %v", okA, okB)
			}
			if got := compareDecimal(&a, &b); got != tc.want {
				t.Errorf("compare(%s, %s) = %d, want %d", tc.a, tc.b, got, tc.want)
			}
			if got := compareDecimal(&b, &a); got != -tc.want {
				t.Errorf("compare(%s, %s) = %d, want %d", tc.b, tc.a, got, -tc.want)
			}
		})
	}
}

func TestParseDecimalRejects(t *testing.T) {
	for name, lit := range map[string]string{
		"empty":             "",
		"leading zero":      "01",
		"plus sign":         "+1",
		"bare dot":          "1.",
		"dot first":         ".5",
		"bare exponent":     "1e",
		"exponent sign":     "1e+",
		"hex":               "0x10",
		"spaces":            " 1",
		"trailing garbage":  "1a",
		"minus alone":       "-",
		"infinity":          "Infinity",
		"quoted":            `"1"`,
		"exponent too long": "1e1000000000000000000",
	} {
		t.Run(name, func(t *testing.T) {
			if _, ok := parseDecimal([]byte(lit)); ok {
				t.Errorf("parseDecimal(%q) succeeded", lit)
			}
		})
	}
}

func TestParseDecimalForm(t *testing.T) {
	tests := map[string]struct {
		lit    string
		digits string
		adj    int64
		neg    bool
	}{
		"integer":         {"120", "12", 3, false},
		"fraction":        {"-0.0120", "12", -1, true},
		"dot in between":  {"1.5E+3", "15", 4, false},
		"exponent zeros":  {"5e-0000", "5", 1, false},
		"zero":            {"0.0", "", 0, false},
		"long, dot split": {"98.7654321", "987654321", 2, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			d, ok := parseDecimal([]byte(tc.lit))
			if !ok {
				t.Fatalf("parseDecimal(%q) failed", tc.lit)
			}
			digits := make([]byte, d.n)
			for k := range digits {
				digits[k] = d.digit(k)
			}
			if string(digits) != tc.digits || (d.n > 0 && d.adj != tc.adj) || d.neg != tc.neg {
				t.Errorf("got digits %q adj %d neg %v; want %q %d %v", digits, d.adj, d.neg, tc.digits, tc.adj, tc.neg)
			}
		})
	}
}
