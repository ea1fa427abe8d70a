package audit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/intenthook/intenthook/internal/ledger"
)

// toLegacy moves what Append wrote to segments into the legacy file, as an
// intenthook older than segments wrote it, and forgets the writer: the
// legacy file's rules are what these tests judge.
func toLegacy(t *testing.T, root string) {
	t.Helper()
	files, err := ledger.Files(root)
	if err != nil {
		t.Fatal(err)
	}
	legacy := filepath.Join(root, filepath.FromSlash(ledger.FileName))
	f, err := os.OpenFile(legacy, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, rel := range files {
		if rel == ledger.FileName {
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	os.RemoveAll(filepath.Join(root, filepath.FromSlash(ledger.SegmentDir)))
	heads, _ := filepath.Glob(filepath.Join(root, ".orchestration", "state", "ledger*"))
	for _, h := range heads {
		os.Remove(h)
	}
}
