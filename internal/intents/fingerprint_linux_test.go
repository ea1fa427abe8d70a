package intents

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/state"
)

// A settled catalog's digest is remembered against its fingerprint and
// used instead of hashing; any write changes the fingerprint, and a
// catalog.stat that names another digest serves nothing stale.
func TestCatalogFingerprint(t *testing.T) {
	defer func(d time.Duration) { settleTime = d }(settleTime)
	settleTime = 0
	root := t.TempDir()
	path := filepath.Join(root, filepath.FromSlash(File))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	catalog := func(status string) string {
		var b strings.Builder
		b.WriteString("active_intents:\n")
		for i := range 300 {
			fmt.Fprintf(&b, "  - id: INT-%03d\n    name: intent %d\n    status: %s\n    owned_scope: [\"src/m%d/**\"]\n", i, i, status, i)
		}
		return b.String()
	}
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	load := func() *Catalog {
		t.Helper()
		c, err := LoadCached(root, path)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	statPath := state.Path(root, statName)

	text := catalog("IN_PROGRESS")
	if len(text) < fingerprintFrom {
		t.Fatalf("catalog of %d bytes is below fingerprintFrom", len(text))
	}
	write(text)
	// A catalog changed within settleTime is hashed, its digest not kept.
	settleTime = time.Hour
	load() // parses, writes the cache
	load()
	if _, err := os.Stat(statPath); err == nil {
		t.Fatal("catalog.stat written for a catalog that has not settled")
	}
	settleTime = 0
	load() // hashes, remembers the digest
	st, _ := os.Stat(path)
	fp, _ := fingerprint(st)
	if data, _ := os.ReadFile(statPath); string(data) != fp+" "+digestOf([]byte(text)) {
		t.Fatalf("catalog.stat = %q, want the fingerprint and digest", data)
	}
	if got := load().Find("INT-007"); got == nil || got.Status != "IN_PROGRESS" {
		t.Fatalf("through catalog.stat: %+v", got)
	}

	// A write of the same size changes the fingerprint: the new text is
	// read. (Its modification time is set apart: a write in the same clock
	// tick as the last is what settleTime guards against.)
	write(strings.ReplaceAll(text, "IN_PROGRESS", "COMPLETE___"))
	later := st.ModTime().Add(time.Second)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if got := load().Find("INT-007"); got == nil || got.Status != "COMPLETE___" {
		t.Fatalf("after a same-size write: %+v", got)
	}

	// A forged catalog.stat naming the old digest (its cache gone) or a
	// made-up one serves nothing stale.
	old := digestOf([]byte(text))
	st, _ = os.Stat(path)
	fp, _ = fingerprint(st)
	for _, key := range []string{old, strings.Repeat("0", 64)} {
		if err := os.WriteFile(statPath, []byte(fp+" "+key), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := load().Find("INT-007"); got == nil || got.Status != "COMPLETE___" {
			t.Fatalf("forged catalog.stat %s…: %+v", key[:8], got)
		}
	}
}
