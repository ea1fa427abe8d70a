// Package money holds amounts of US dollars as whole millionths
// (micro-dollars), so that what intents spend sums exactly: parsing an
// amount as people write it in the catalog and config.yaml, and printing
// one. It knows no prices; config holds those.
package money

import (
	"strconv"
	"strings"
)

// Micro is one millionth of a dollar.
const Micro = 1_000_000

// maxDollars bounds an amount: far past any budget, and far below where
// micro-dollars overflow an int64.
const maxDollars = 1_000_000_000

// Parse reads a non-negative amount of dollars, "12", "12.5", "0.000125"
// (at most six decimals, no sign, no exponent, an optional leading "$"),
// as micro-dollars.
func Parse(s string) (int64, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "$")
	whole, frac, dot := strings.Cut(s, ".")
	if whole == "" && (!dot || frac == "") || len(frac) > 6 || !digits(whole) || !digits(frac) {
		return 0, false
	}
	w := int64(0)
	if whole != "" {
		n, err := strconv.ParseInt(whole, 10, 64)
		if err != nil || n > maxDollars {
			return 0, false
		}
		w = n
	}
	f := int64(0)
	if frac != "" {
		n, _ := strconv.ParseInt(frac+strings.Repeat("0", 6-len(frac)), 10, 64)
		f = n
	}
	return w*Micro + f, true
}

func digits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// Format prints micro-dollars as dollars: in cents ("$12.50"), but for an
// amount under a dollar that is no whole number of cents, which keeps up
// to six decimals ("$0.0042", "$0.0116").
func Format(micros int64) string {
	sign := ""
	if micros < 0 {
		sign, micros = "-", -micros
	}
	whole, frac := micros/Micro, micros%Micro
	if micros >= Micro || micros%10_000 == 0 {
		cents := (frac + 5_000) / 10_000
		if cents == 100 {
			whole, cents = whole+1, 0
		}
		return sign + "$" + strconv.FormatInt(whole, 10) + "." + pad(cents, 2)
	}
	return sign + "$0." + strings.TrimRight(pad(frac, 6), "0")
}

func pad(n int64, width int) string {
	s := strconv.FormatInt(n, 10)
	for len(s) < width {
		s = "0" + s
	}
	return s
}

// Decimal prints micro-dollars as a plain decimal number of dollars, no
// more digits than it needs: "12.5", "0.000125", "3".
func Decimal(micros int64) string {
	sign := ""
	if micros < 0 {
		sign, micros = "-", -micros
	}
	s := sign + strconv.FormatInt(micros/Micro, 10)
	if frac := micros % Micro; frac != 0 {
		s += "." + strings.TrimRight(pad(frac, 6), "0")
	}
	return s
}

// Amount is an amount of dollars in micro-dollars, read and written as a
// plain decimal number of dollars: in JSON (a number, or a string holding
// one) and as text (which YAML reads a scalar through). Text that is no
// amount reads as Invalid, never as an error: a settings file whose price
// is misspelt must not become a config error (its caller warns and drops
// it).
type Amount int64

// Invalid is the Amount of text that is no amount.
const Invalid Amount = -1

// UnmarshalText reads an amount, or Invalid.
func (a *Amount) UnmarshalText(text []byte) error {
	n, ok := Parse(string(text))
	if !ok {
		*a = Invalid
		return nil
	}
	*a = Amount(n)
	return nil
}

// MarshalText writes a as Decimal does.
func (a Amount) MarshalText() ([]byte, error) { return []byte(Decimal(int64(a))), nil }

// MarshalJSON writes a as a JSON number of dollars.
func (a Amount) MarshalJSON() ([]byte, error) { return []byte(Decimal(int64(a))), nil }

// UnmarshalJSON reads a JSON number of dollars, or a string holding one.
func (a *Amount) UnmarshalJSON(b []byte) error {
	s := string(b)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	if s == "-1" {
		*a = Invalid
		return nil
	}
	return a.UnmarshalText([]byte(s))
}
