package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/ledger"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestGolden")

// history builds a real repository whose every byte is fixed (dates, names,
// record ids and times), so that commits, ledger digests and so audit's
// output are the same on every run. On branch feature, from main (whose
// ledger has a record):
//   - a write the hooks traced (src/a.go), and a denial recorded;
//   - INT-001's scope widened (docs/guide/**) by another author;
//   - other/b.go committed past the hooks (--no-verify): out of every scope;
//   - a hand edit of src/a.go: not traced;
//   - main (another session appending) merged in: a union-merged ledger;
//   - a ledger line from before the branch rewritten.
func history(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	if err := os.MkdirAll(filepath.Join(dir, ".orchestration"), 0o755); err != nil {
		t.Fatal(err)
	}
	clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	run := func(author string, args ...string) {
		t.Helper()
		name, email, _ := strings.Cut(author, " ")
		clock = clock.Add(time.Minute)
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		date := clock.Format(time.RFC3339)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME="+name, "GIT_AUTHOR_EMAIL="+email, "GIT_COMMITTER_NAME="+name, "GIT_COMMITTER_EMAIL="+email,
			"GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	write := func(rel, content string) { t.Helper(); writeFile(t, dir, rel, content) }
	catalog := func(scope string) string {
		return "active_intents:\n  - {id: INT-001, name: Hooks, status: IN_PROGRESS, owned_scope: [" + scope + "], constraints: [], acceptance_criteria: [], created_at: \"2026-11-01T00:00:00Z\", updated_at: \"2026-11-01T00:00:00Z\"}\n"
	}
	l := &ledger.Ledger{Root: dir, ToolVersion: "golden", Now: func() time.Time { return clock }}
	n := 0
	record := func(session, path, content, decision, code string) {
		t.Helper()
		n++
		m := ledger.Meta{Event: ledger.EventPostToolUse, IntentID: "INT-001", SessionID: session, ToolName: "Write",
			ToolUseID: fmt.Sprintf("toolu_%d", n), MutationClass: "FILE_CREATION", ScopeValidation: "PASS", Decision: decision, Success: true}
		if decision == "allow" {
			m.PostHash = ledger.NullString(digest.String(content))
		} else {
			m.Event, m.Code, m.ScopeValidation, m.MutationClass = ledger.EventPreToolUse, ledger.NullString(code), "FAIL", ""
		}
		r := &ledger.Record{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", n), Metadata: ledger.Metadata{Intenthook: m},
			Files: []ledger.File{{Path: path, Conversations: []ledger.Conversation{{
				Contributor: &ledger.Contributor{Type: "ai", ModelID: "anthropic/claude-golden"}, Ranges: []ledger.Range{}}}}}}
		if err := l.Append(context.Background(), r); err != nil {
			t.Fatal(err)
		}
		toLegacy(t, dir)
	}
	dev, lead := "Dev dev@example.com", "Lead lead@example.com"
	write(".orchestration/active_intents.yaml", catalog("src/**"))
	write(".gitattributes", ".orchestration/agent_trace.jsonl merge=union\n")
	write(".gitignore", ".orchestration/state/\n")
	write("README.md", "repo\n")
	write("src/base.go", "package base\n")
	record("s0", "src/base.go", "package base\n", "allow", "")
	run(dev, "init", "-q", "-b", "main")
	run(dev, "add", "-A")
	run(dev, "commit", "-qm", "catalog")
	run(dev, "checkout", "-q", "-b", "feature")

	write("src/a.go", "package a\n")
	record("s1", "src/a.go", "package a\n", "allow", "")
	record("s1", "docs/x.md", "", "deny", "scope_violation")
	run(dev, "add", "-A")
	run(dev, "commit", "-qm", "traced write")

	write(".orchestration/active_intents.yaml", catalog("src/**, docs/guide/**"))
	run(lead, "commit", "-qam", "widen INT-001")

	write("other/b.go", "package other\n")
	run(dev, "add", "-A")
	run(dev, "commit", "-q", "--no-verify", "-m", "by hand")

	write("src/a.go", "package a // edited\n")
	run(dev, "commit", "-qam", "edit")

	run(dev, "checkout", "-q", "main")
	write("src/m.go", "package m\n")
	record("s9", "src/m.go", "package m\n", "allow", "")
	run(dev, "add", "-A")
	run(dev, "commit", "-qm", "main work")
	run(dev, "checkout", "-q", "feature")
	run(dev, "merge", "-q", "--no-edit", "main")

	ledgerPath := filepath.Join(dir, ".orchestration", "agent_trace.jsonl")
	data, err := os.ReadFile(ledgerPath)
	if err != nil {
		t.Fatal(err)
	}
	write(".orchestration/agent_trace.jsonl", strings.Replace(string(data), `"session_id":"s0"`, `"session_id":"sX"`, 1))
	run(dev, "commit", "-q", "--no-verify", "-am", "rewrite the ledger")
	return dir
}

// The audit of that history, in each of its outputs, byte for byte.
func TestGolden(t *testing.T) {
	dir := history(t)
	res, err := Run(context.Background(), git.Open(dir), "main..feature", false)
	if err != nil {
		t.Fatal(err)
	}
	var text, md, js, sarif bytes.Buffer
	res.Text(&text)
	res.Markdown(&md)
	enc := json.NewEncoder(&js)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res); err != nil {
		t.Fatal(err)
	}
	if err := res.SARIF(&sarif, "golden"); err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]byte{"audit.txt": text.Bytes(), "audit.md": md.Bytes(), "audit.json": js.Bytes(), "audit.sarif": sarif.Bytes()} {
		path := filepath.Join("testdata", name)
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test -run TestGolden -update writes it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the golden file:\n%s", name, got)
		}
	}
}

// writeFile writes content to rel under dir, making its directories.
func writeFile(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
