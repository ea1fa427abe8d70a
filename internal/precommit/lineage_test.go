package precommit

import (
	"os"
	"path/filepath"
	"testing"
)

// firstChain reads a ledger file's first chained record: where it starts
// from and the commit it names, past the unchained lines of older shapes.
func TestFirstChain(t *testing.T) {
	const root = `{"version":"0.1.0","id":"a","timestamp":"2026-11-22T10:00:00.000Z","vcs":{"type":"git","revision":"c0ffee"},"files":[],"metadata":{"dev.intenthook":{"seq":1,"prev":null,"event":"select"}}}`
	const next = `{"version":"0.1.0","id":"b","timestamp":"2026-11-22T10:00:01.000Z","files":[],"metadata":{"dev.intenthook":{"seq":2,"prev":"sha256:00","event":"select"}}}`
	tests := []struct {
		name, data string
		prev, rev  string
		ok         bool
	}{
		{"from nothing", root + "\n" + next + "\n", "", "c0ffee", true},
		{"from a record", next + "\n", "sha256:00", "", true},
		{"older unchained lines first", `{"intent_id":"INT-001","file":{"path":"a.go"}}` + "\n" + root + "\n", "", "c0ffee", true},
		{"empty", "", "", "", false},
		{"no line that parses", "{\n", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "000001.jsonl")
			if err := os.WriteFile(p, []byte(tt.data), 0o644); err != nil {
				t.Fatal(err)
			}
			prev, rev, ok := firstChain(p)
			if prev != tt.prev || rev != tt.rev || ok != tt.ok {
				t.Errorf("firstChain = %q, %q, %v; want %q, %q, %v", prev, rev, ok, tt.prev, tt.rev, tt.ok)
			}
		})
	}
}
