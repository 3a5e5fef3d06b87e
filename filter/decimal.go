package filter

import "cmp"

// decimal is an exact view of a JSON number literal, read in place without
// copying or converting to binary floating point. A non-zero value is
//
//	±0.d₁d₂…dₙ × 10^adj
//
// where d₁ (non-zero) … dₙ (non-zero) are the significant digits of the
// mantissa with leading and trailing zeros removed. Two non-zero decimals of
// the same sign compare by adj first and then digit by digit; n == 0 means
// zero, whatever the sign or exponent ("-0.0e7" equals "0").
type decimal struct {
	// mant is the literal's mantissa: integer digits, optionally '.' and
	// fraction digits (no sign, no exponent).
	mant []byte
	// first is the index in mant of d₁.
	first int
	// dot is the index of '.' in mant, or -1.
	dot int
	// n is the number of significant digits.
	n int
	// adj is the decimal exponent of the normalized form.
	adj int64
	neg bool
}

// maxExpDigits bounds the significant digits of a literal's exponent so that
// it fits an int64 with room for the mantissa-length adjustment; a larger
// exponent (beyond 10^18) is out of range.
const maxExpDigits = 18

// parseDecimal parses a JSON number literal. It fails on anything else and
// on exponents beyond 18 digits. It does not allocate.
func parseDecimal(b []byte) (decimal, bool) {
	if end := scanNumber(b, 0); end != len(b) {
		return decimal{}, false
	}
	d := decimal{dot: -1}
	i := 0
	if b[0] == '-' {
		d.neg, i = true, 1
	}
	start := i
	for i < len(b) && b[i] != 'e' && b[i] != 'E' {
		if b[i] == '.' {
			d.dot = i - start
		}
		i++
	}
	d.mant = b[start:i]
	exp, ok := parseExponent(b[i:])
	if !ok {
		return decimal{}, false
	}
	d.normalize(exp)
	return d, true
}

// parseExponent parses "", or "e"/"E" followed by an optionally signed
// integer of at most maxExpDigits significant digits. The grammar has been
// checked by scanNumber.
func parseExponent(b []byte) (int64, bool) {
	if len(b) == 0 {
		return 0, true
	}
	b = b[1:]
	neg := b[0] == '-'
	if b[0] == '-' || b[0] == '+' {
		b = b[1:]
	}
	for len(b) > 1 && b[0] == '0' {
		b = b[1:]
	}
	if len(b) > maxExpDigits {
		return 0, false
	}
	var e int64
	for _, c := range b {
		e = e*10 + int64(c-'0')
	}
	if neg {
		e = -e
	}
	return e, true
}

// normalize locates the significant digits of d.mant and computes n and adj
// for the literal exponent exp.
func (d *decimal) normalize(exp int64) {
	first, last := -1, -1
	for i, c := range d.mant {
		if c != '.' && c != '0' {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return // zero: n == 0
	}
	intLen := len(d.mant)
	if d.dot >= 0 {
		intLen = d.dot
	}
	index := first // index of d₁ among all mantissa digits
	if d.dot >= 0 && first > d.dot {
		index--
	}
	d.first = first
	d.n = last - first + 1
	if d.dot > first && d.dot < last {
		d.n--
	}
	d.adj = int64(intLen-index) + exp
}

// digit returns the k-th significant digit, 0 <= k < d.n.
func (d *decimal) digit(k int) byte {
	p := d.first + k
	if d.dot > d.first && p >= d.dot {
		p++
	}
	return d.mant[p]
}

// sign returns -1, 0 or +1.
func (d *decimal) sign() int {
	switch {
	case d.n == 0:
		return 0
	case d.neg:
		return -1
	}
	return 1
}

// compareDecimal returns -1, 0 or +1 as a is less than, equal to or greater
// than b, exactly.
func compareDecimal(a, b *decimal) int {
	sa, sb := a.sign(), b.sign()
	if sa != sb || sa == 0 {
		return cmp.Compare(sa, sb)
	}
	return sa * compareMagnitude(a, b)
}

// compareMagnitude compares the absolute values of two non-zero decimals.
func compareMagnitude(a, b *decimal) int {
	if a.adj != b.adj {
		return cmp.Compare(a.adj, b.adj)
	}
	for k := 0; k < a.n && k < b.n; k++ {
		if da, db := a.digit(k), b.digit(k); da != db {
			return cmp.Compare(da, db)
		}
	}
	return cmp.Compare(a.n, b.n)
}
