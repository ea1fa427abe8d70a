package console

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/ledger"
)

// boardCatalog is a catalog of the intents ids, each IN_PROGRESS over
// src/**.
func boardCatalog(t *testing.T, root string, ids ...string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("active_intents:\n")
	for _, id := range ids {
		fmt.Fprintf(&b, "  - id: %q\n    name: %q\n    status: \"IN_PROGRESS\"\n    owned_scope: [\"src/**\"]\n    constraints: []\n    acceptance_criteria: []\n"+
			"    created_at: \"2026-02-18T10:00:00Z\"\n    updated_at: \"2026-02-20T14:00:00Z\"\n", id, id)
	}
	if err := os.WriteFile(filepath.Join(root, ".orchestration", "active_intents.yaml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// wrote appends a successful write of intent's: for each file, the lines
// first..last of text (1-based), hashed as the hooks hash a range.
type span struct {
	path        string
	first, last int
	text        string
}

func wrote(t *testing.T, root, intent string, spans ...span) {
	t.Helper()
	rec := ledger.NewRecord("", ledger.Meta{Event: ledger.EventPostToolUse, IntentID: ledger.NullString(intent), SessionID: "s1", ToolName: "Write"})
	for _, s := range spans {
		f := ledger.File{Path: s.path}
		if s.text != "" {
			f.Conversations = []ledger.Conversation{{Ranges: []ledger.Range{{StartLine: s.first, EndLine: s.last, ContentHash: digest.Bytes([]byte(s.text))}}}}
		}
		rec.Files = append(rec.Files, f)
	}
	if err := (&ledger.Ledger{Root: root}).Append(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// boardLines is each intent's "lines" on the board, as the JSON has it.
func (f *fixture) boardLines() map[string]string {
	f.t.Helper()
	c := f.client()
	f.login(c)
	resp, body := f.do(c, "GET", "/api/intents", "", nil)
	var b struct {
		Intents []struct {
			ID    string          `json:"id"`
			Lines json.RawMessage `json:"lines"`
		} `json:"intents"`
	}
	if resp.StatusCode != 200 || json.Unmarshal([]byte(body), &b) != nil {
		f.t.Fatalf("GET /api/intents: %d %s", resp.StatusCode, body)
	}
	out := map[string]string{}
	for _, in := range b.Intents {
		out[in.ID] = string(in.Lines)
	}
	return out
}

// TestIntentsLines: each intent's lines in the files the board lists for
// it, as they are now: by its agents (a write of the intent's still backs
// the line: its range hashes the same), by another intent's agents, and by
// people (no write backs it). A file over 1 MiB is not read and cuts the
// count; a file gone, a link out of the work tree and paths out of it or
// under .git are not read and count nothing.
func TestIntentsLines(t *testing.T) {
	f := newFixture(t)
	outside := filepath.Join(t.TempDir(), "secret.go")
	if err := os.WriteFile(outside, []byte("secret\nsecret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	boardCatalog(t, f.root, "INT-001", "INT-002", "INT-003")
	// src/a.go: INT-001 wrote three lines; a person added one.
	wrote(t, f.root, "INT-001", span{"src/a.go", 1, 3, "package a\n\nfunc A() {}\n"})
	writeFile(t, f.root, "src/a.go", "package a\n\nfunc A() {}\n// by hand\n")
	// src/shared.go: INT-001 wrote its first two lines, INT-002 its last.
	wrote(t, f.root, "INT-001", span{"src/shared.go", 1, 2, "a\nb\n"})
	wrote(t, f.root, "INT-002", span{"src/shared.go", 3, 3, "C\n"})
	writeFile(t, f.root, "src/shared.go", "a\nb\nC\n")
	// Not read: over 1 MiB (cut), gone, a link out of the work tree, out
	// of it, under .git.
	writeFile(t, f.root, "src/big.go", strings.Repeat("x\n", maxBlameBytes/2+1))
	wrote(t, f.root, "INT-001", span{"src/big.go", 1, 1, "x\n"}, span{"src/gone.go", 1, 1, "x\n"}, span{"src/link.go", 1, 2, "secret\nsecret\n"})
	if err := os.Symlink(outside, filepath.Join(f.root, "src", "link.go")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, f.root, ".git/config", "[core]\n")
	wrote(t, f.root, "INT-002", span{".git/config", 1, 1, "[core]\n"}, span{"../" + filepath.Base(filepath.Dir(outside)) + "/secret.go", 1, 2, "secret\nsecret\n"})

	got := f.boardLines()
	want := map[string]string{
		"INT-001": `{"agents":5,"people":1,"other_intents":1,"files":2,"cut":true}`,
		"INT-002": `{"agents":1,"people":0,"other_intents":2,"files":1,"cut":false}`,
		"INT-003": ``,
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s's lines = %s\nwant %s", id, got[id], w)
		}
	}
}

// TestIntentsLinesBounded: the board reads maxLineFiles files at most,
// however many its intents list, the intent worked on last first, and
// says which counts were cut.
func TestIntentsLinesBounded(t *testing.T) {
	f := newFixture(t)
	boardCatalog(t, f.root, "INT-001", "INT-002")
	const each = 30 // two intents' files: more than maxLineFiles
	for _, id := range []string{"INT-002", "INT-001"} {
		var spans []span
		for i := range each {
			p := fmt.Sprintf("src/%s/f%02d.go", id, i)
			writeFile(t, f.root, p, "line\nby hand\n")
			spans = append(spans, span{p, 1, 1, "line\n"})
		}
		wrote(t, f.root, id, spans...)
	}
	got := f.boardLines()
	rest := maxLineFiles - each
	want := map[string]string{
		"INT-001": fmt.Sprintf(`{"agents":%d,"people":%d,"other_intents":0,"files":%d,"cut":false}`, each, each, each),
		"INT-002": fmt.Sprintf(`{"agents":%d,"people":%d,"other_intents":0,"files":%d,"cut":true}`, rest, rest, rest),
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s's lines = %s\nwant %s", id, got[id], w)
		}
	}
}
