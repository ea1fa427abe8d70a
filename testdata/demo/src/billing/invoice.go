package billing

// Total sums line amounts.
func Total(lines []float64) float64 {
	var t float64
	for _, l := range lines {
		t += l
	}
	return t
}
