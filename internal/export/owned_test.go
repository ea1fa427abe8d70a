package export

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/ledger"
)

// Under records: own a clone sends its own writer's segments and the
// legacy file; a teammate's segments, which their commits bring, are
// theirs to send. records: all (CI) sends every file.
func TestOwned(t *testing.T) {
	root := t.TempDir()
	const mine, theirs = "00000000000000aa", "00000000000000bb"
	line := `{"version":"0.1.0","id":"id-1","timestamp":"2026-11-22T10:00:00.000Z","files":[],"metadata":{"dev.intenthook":{"seq":1,"prev":null,"event":"select","intent_id":"INT-001","session_id":"s","decision":"allow","success":true}}}` + "\n"
	files := []string{
		ledger.FileName,
		".orchestration/ledger/" + mine + "/2026-11/000001.jsonl",
		".orchestration/ledger/" + theirs + "/2026-11/000001.jsonl",
	}
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := Owned(root, files, config.RecordsOwn); !slices.Equal(got, files[:1]) {
		t.Errorf("own, before this clone wrote a segment: %q, want the legacy file alone", got)
	}
	if err := ledger.Continue(root, mine); err != nil {
		t.Fatal(err)
	}
	if got := Owned(root, files, config.RecordsOwn); !slices.Equal(got, files[:2]) {
		t.Errorf("own: %q, want the legacy file and %s's segment", got, mine)
	}
	if got := Owned(root, files, config.RecordsAll); !slices.Equal(got, files) {
		t.Errorf("all: %q, want every file", got)
	}
}
