package ledger

import (
	"bytes"
	"strings"
	"testing"
)

// TestLastLine reads the last line back at every length around the first
// read's 4 KiB, with and without a line before it.
func TestLastLine(t *testing.T) {
	for _, before := range []string{"", "{\"seq\":1}\n", strings.Repeat("p", 5000) + "\n"} {
		for _, n := range []int{0, 1, 4094, 4095, 4096, 4097, 8191, 8192, 8193, 20000} {
			line := bytes.Repeat([]byte("x"), n)
			data := append([]byte(before), line...)
			data = append(data, '\n')
			got, err := lastLine(bytes.NewReader(data), int64(len(data)-1))
			if err != nil || !bytes.Equal(got, line) {
				t.Errorf("before %d bytes, line of %d: got %d bytes, %v", len(before), n, len(got), err)
			}
		}
	}
}
