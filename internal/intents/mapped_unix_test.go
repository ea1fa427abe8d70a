//go:build unix

package intents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A catalog cut short in place while mapped must read as a miss, not crash
// the hook.
func TestMappedCatalogTruncated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "active_intents.yaml")
	text := strings.Repeat("# padding line to fill more than one page\n", 400)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	data, _, ok := mapCatalog(path)
	if !ok || string(data) != text {
		t.Fatalf("mapCatalog = %d bytes, %v; want the file", len(data), ok)
	}
	if key, ok := digestMapped(data); !ok || key != digestOf([]byte(text)) {
		t.Fatalf("digestMapped = %q, %v; want the file's digest", key, ok)
	}
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	if _, ok := digestMapped(data); ok {
		t.Fatal("digestMapped over a truncated mapping reported ok")
	}
	c := &Catalog{source: data}
	if c.agreesSafely(&Intent{ID: "INT-001", Line: 2, lineStart: strings.IndexByte(text, '\n') + 1}) {
		t.Fatal("agreesSafely over a truncated mapping agreed")
	}
}
