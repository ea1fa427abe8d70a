package digest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDigest(t *testing.T) {
	// sha256("abc"), from FIPS 180-2.
	const abc = "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	if String("abc") != abc || Bytes([]byte("abc")) != abc {
		t.Fatal("digest of abc")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	if h, err := File(p); err != nil || h != abc {
		t.Errorf("File = %q, %v", h, err)
	}
	for _, absent := range []string{filepath.Join(dir, "missing"), dir} {
		if h, err := File(absent); err != nil || h != "" {
			t.Errorf("File(%s) = %q, %v; want no content", absent, h, err)
		}
	}
}

// BenchmarkFile hashes a 64 KiB source file, as the stale check does.
func BenchmarkFile(b *testing.B) {
	p := filepath.Join(b.TempDir(), "f")
	if err := os.WriteFile(p, []byte(strings.Repeat("x", 64<<10)), 0o644); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		if _, err := File(p); err != nil {
			b.Fatal(err)
		}
	}
}
