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

// Format prints micro-dollars as dollars: cents for amounts of a cent or
// more ("$12.50"), else up to six decimals ("$0.0042").
func Format(micros int64) string {
	sign := ""
	if micros < 0 {
		sign, micros = "-", -micros
	}
	whole, frac := micros/Micro, micros%Micro
	if micros >= 10_000 || frac == 0 {
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
