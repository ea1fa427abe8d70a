package ledger

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/state"
)

// newLedger returns a ledger in a fresh workspace whose clock starts at
// 2026-11-22T10:00:00Z and moves one second a reading.
func newLedger(t testing.TB) *Ledger {
	t.Helper()
	clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	return &Ledger{
		Root:        t.TempDir(),
		LockTimeout: 5 * time.Second,
		ToolVersion: "0.1.0",
		Now: func() time.Time {
			clock = clock.Add(time.Second)
			return clock
		},
	}
}

// writeRecord is a PostToolUse record of a Write, as the post pipeline makes it.
func writeRecord(session, path string) *Record {
	return &Record{
		VCS: &VCS{Type: "git", Revision: "0123456789abcdef0123456789abcdef01234567"},
		Files: []File{{Path: path, Conversations: []Conversation{{
			URL:         FileURL("/home/u/.claude/projects/x/" + session + ".jsonl"),
			Contributor: &Contributor{Type: "ai", ModelID: "anthropic/claude-sonnet-5"},
			Ranges:      []Range{{StartLine: 1, EndLine: 3, ContentHash: digest.String("a\nb\nc\n")}},
			Related:     []Related{{Type: "intent", URL: IntentURL("INT-001")}},
		}}}},
		Metadata: Metadata{Intenthook: Meta{
			Event: EventPostToolUse, IntentID: "INT-001", SessionID: session, ToolName: "Write",
			ToolUseID: "toolu_01", MutationClass: "FILE_CREATION", PostHash: NullString(digest.String("a\nb\nc\n")),
			ScopeValidation: "PASS", Decision: "allow", Success: true,
		}},
	}
}

func mustAppend(t testing.TB, l *Ledger, recs ...*Record) {
	t.Helper()
	if err := l.Append(context.Background(), recs...); err != nil {
		t.Fatalf("append: %v", err)
	}
}

// testLedgerPath is the one file the test's records are in: the only
// segment when there is one, else the legacy file.
func testLedgerPath(t testing.TB, root string) string {
	t.Helper()
	segs, _, err := ListSegments(root)
	if err != nil {
		t.Fatal(err)
	}
	switch len(segs) {
	case 0:
		return ledgerPath(root)
	case 1:
		return filepath.Join(root, filepath.FromSlash(segs[0].Rel))
	}
	t.Fatalf("%d segments, want one", len(segs))
	return ""
}

// ledgerBytes is every ledger file's bytes, the legacy file's first, then
// the segments' in name order.
func ledgerBytes(t testing.TB, root string) []byte {
	t.Helper()
	files, err := Files(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("read ledger: no ledger file")
	}
	var out []byte
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			t.Fatalf("read ledger: %v", err)
		}
		out = append(out, b...)
	}
	return out
}

// toLegacy moves the records appended so far into the legacy file, as an
// older version wrote them: the segments' lines after the legacy file's,
// and a head file without a segment.
func toLegacy(t testing.TB, root string) {
	t.Helper()
	b := ledgerBytes(t, root)
	if err := os.RemoveAll(filepath.Join(root, filepath.FromSlash(SegmentDir))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ledgerPath(root), b, 0o644); err != nil {
		t.Fatal(err)
	}
	hb, err := os.ReadFile(state.Path(root, headName))
	if err == nil {
		h := parseHeadFile(hb)
		if err := os.WriteFile(state.Path(root, headName), append(headLine(headFile{Head: h.Head, Commit: h.Commit}), '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func writeLedger(t testing.TB, root string, b []byte) {
	t.Helper()
	path := ledgerPath(root)
	if _, err := os.Stat(path); err != nil {
		path = testLedgerPath(t, root)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// ledgerLines returns the ledger's lines, failing when it does not end in a newline.
func ledgerLines(t testing.TB, root string) [][]byte {
	t.Helper()
	b := ledgerBytes(t, root)
	if len(b) > 0 && b[len(b)-1] != '\n' {
		t.Fatalf("ledger does not end in a newline: %q", b[max(0, len(b)-40):])
	}
	return bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
}

// checkChain checks, without Verify, that every line parses, seq counts from
// 1 and prev is the digest of the line before; it returns the records.
func checkChain(t testing.TB, lines [][]byte) []*Record {
	t.Helper()
	var recs []*Record
	prev := ""
	for i, line := range lines {
		if len(line)+1 > MaxLine {
			t.Errorf("line %d: %d bytes, over MaxLine", i+1, len(line)+1)
		}
		var r Record
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("line %d does not parse: %v\n%s", i+1, err, line)
		}
		m := r.Metadata.Intenthook
		if m.Seq != int64(i+1) {
			t.Errorf("line %d: seq %d, want %d", i+1, m.Seq, i+1)
		}
		if string(m.Prev) != prev {
			t.Errorf("line %d: prev %q, want %q", i+1, m.Prev, prev)
		}
		if i == 0 && !bytes.Contains(line, []byte(`"prev":null`)) {
			t.Errorf("line 1: prev is not null: %s", line)
		}
		prev = digest.Bytes(line)
		recs = append(recs, &r)
	}
	return recs
}

func readHeadFile(t testing.TB, root string) Head {
	t.Helper()
	b, err := os.ReadFile(state.Path(root, headName))
	if err != nil {
		t.Fatalf("read head: %v", err)
	}
	var h Head
	if err := json.Unmarshal(b, &h); err != nil {
		t.Fatalf("head %q: %v", b, err)
	}
	return h
}

func mustVerify(t testing.TB, root string) Report {
	t.Helper()
	rep := Verify(root)
	if !rep.OK() {
		t.Fatalf("verify: %v", rep.Errors)
	}
	return rep
}

func spoolNames(t testing.TB, root string) []string {
	t.Helper()
	entries, err := os.ReadDir(state.Path(root, spoolDir))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func sessions(recs []Record) []string {
	var out []string
	for _, r := range recs {
		out = append(out, fmt.Sprintf("%s#%d", r.Metadata.Intenthook.SessionID, r.Metadata.Intenthook.Seq))
	}
	return out
}

// runGit runs git in dir with no user or system configuration and a fixed
// identity, failing the test when it fails.
func runGit(t testing.TB, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}
