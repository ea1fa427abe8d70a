package randid

import (
	"encoding/hex"
	"testing"
)

// TestHex: n bytes in 2n hexadecimal characters, each call a new id.
func TestHex(t *testing.T) {
	seen := map[string]bool{}
	for _, n := range []int{1, 4, 8, 9, 16} {
		for range 100 {
			id := Hex(n)
			if b, err := hex.DecodeString(id); err != nil || len(b) != n {
				t.Fatalf("Hex(%d) = %q: %d bytes, %v", n, id, len(b), err)
			}
			if n >= 4 && seen[id] {
				t.Fatalf("Hex(%d) gave %q twice", n, id)
			}
			seen[id] = true
		}
	}
}
