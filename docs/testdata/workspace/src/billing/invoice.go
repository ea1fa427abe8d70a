package billing

// Total is an invoice's total.
func Total(lines []float64) float64 {
	var t float64
	for _, l := range lines {
		t += l
	}
	return t
}
