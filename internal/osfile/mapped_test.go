package osfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestMapRange: a range at any offset maps to the file's bytes there, or,
// where nothing maps, says so.
func TestMapRange(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 3000) // 48 000 bytes, past a page
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, r := range [][2]int64{{0, 48000}, {4095, 10}, {4096, 5000}, {12345, 48000 - 12345}} {
		got, unmap, ok := MapRange(f, r[0], r[1])
		if !ok {
			t.Logf("range %v not mapped here", r)
			continue
		}
		if !bytes.Equal(got, data[r[0]:r[0]+r[1]]) {
			t.Errorf("MapRange(%d, %d) holds other bytes", r[0], r[1])
		}
		unmap()
	}
	if _, _, ok := MapRange(f, 10, 0); ok {
		t.Error("an empty range mapped")
	}
}

// Faulted passes a panic that is not a fault on.
func TestFaultedPassesOtherPanics(t *testing.T) {
	defer func() {
		if r := recover(); r != "boom" {
			t.Fatalf("recovered %v, want the original panic", r)
		}
	}()
	Faulted(func() { panic("boom") })
}
