package audit

import (
	"context"
	"fmt"
	"github.com/intenthook/intenthook/internal/clocktest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/ledger"
)

// An audit of traced work whose records were stamped across the year's
// last millisecond, a leap day, the end of a February without one, and a
// clock that steps an hour back over the end of a month, one commit a
// write: every change is traced, the ledger's segments verify, nothing is
// found, and the range's records come in the order they were written.
func TestAuditAcrossCalendar(t *testing.T) {
	tests := []struct {
		name  string
		start string
		step  time.Duration
		back  time.Duration // after the third write
	}{
		{"year end", "2026-12-31T23:59:59.997Z", time.Millisecond, 0},
		{"leap day", "2028-02-28T23:59:59.997Z", 12 * time.Hour, 0},
		{"end of February", "2027-02-28T23:59:59.997Z", time.Millisecond, 0},
		{"an hour back over a month's end", "2026-12-01T00:29:59.998Z", time.Millisecond, time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start, err := time.Parse(time.RFC3339Nano, tt.start)
			if err != nil {
				t.Fatal(err)
			}
			c := &clocktest.Clock{Now: start, Step: tt.step}
			dir := filepath.Join(t.TempDir(), "repo")
			run := func(args ...string) string {
				t.Helper()
				cmd := exec.Command("git", args...)
				cmd.Dir = dir
				date := c.Now.Format(time.RFC3339)
				cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "TZ=UTC",
					"GIT_AUTHOR_NAME=Dev", "GIT_AUTHOR_EMAIL=dev@example.com", "GIT_COMMITTER_NAME=Dev", "GIT_COMMITTER_EMAIL=dev@example.com",
					"GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
				}
				return strings.TrimSpace(string(out))
			}
			write := func(rel, content string) { t.Helper(); writeFile(t, dir, rel, content) }
			write(".orchestration/active_intents.yaml", "active_intents:\n  - {id: INT-001, name: Hooks, status: IN_PROGRESS, owned_scope: [\"src/**\"], constraints: [], acceptance_criteria: [], created_at: \"2026-11-01T00:00:00Z\", updated_at: \"2026-11-01T00:00:00Z\"}\n")
			write(".gitattributes", ".orchestration/** -text\n")
			write(".gitignore", ".orchestration/state/\n")
			run("init", "-q", "-b", "main")
			run("add", "-A")
			run("commit", "-qm", "catalog")
			base := run("rev-parse", "HEAD")

			l := &ledger.Ledger{Root: dir, ToolVersion: "test", Now: c.Read}
			const writes = 6
			for i := range writes {
				if i == 3 {
					c.Now = c.Now.Add(-tt.back)
				}
				rel, content := fmt.Sprintf("src/f%d.go", i), fmt.Sprintf("package src // %d\n", i)
				write(rel, content)
				r := &ledger.Record{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i+1), Metadata: ledger.Metadata{Intenthook: ledger.Meta{
					Event: ledger.EventPostToolUse, IntentID: "INT-001", SessionID: "s1", ToolName: "Write", ToolUseID: fmt.Sprint(i),
					MutationClass: "FILE_CREATION", ScopeValidation: "PASS", Decision: "allow", Success: true, PostHash: ledger.NullString(digest.String(content))}},
					Files: []ledger.File{{Path: rel, Conversations: []ledger.Conversation{{
						Contributor: &ledger.Contributor{Type: "ai", ModelID: "anthropic/claude-test"}, Ranges: []ledger.Range{}}}}}}
				if err := l.Append(context.Background(), r); err != nil {
					t.Fatal(err)
				}
				run("add", "-A")
				run("commit", "-qm", "write "+rel)
			}
			segs, _, err := ledger.ListSegments(dir)
			if err != nil {
				t.Fatal(err)
			}
			months := map[string]bool{}
			for _, s := range segs {
				months[strings.Split(s.Rel, "/")[3]] = true
			}
			// A ledger stamps no record before the line it follows: after
			// the step back the records stay in December.
			if crossed := len(months) > 1; crossed != (tt.back == 0) {
				t.Fatalf("segments %v: crossed a month %v", segs, crossed)
			}

			res, err := Run(context.Background(), git.Open(dir), base+"..HEAD", true)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Findings) != 0 {
				t.Errorf("findings: %v", res.Findings)
			}
			if len(res.Changes) != writes || slices.ContainsFunc(res.Changes, func(c Change) bool { return !c.Traced }) {
				t.Errorf("changes %+v: want %d, each traced", res.Changes, writes)
			}
			var ids []string
			for _, r := range res.Records {
				ids = append(ids, r.ID[len(r.ID)-1:])
			}
			if got := strings.Join(ids, ""); got != "123456" {
				t.Errorf("records in the order %s, want 123456", got)
			}
		})
	}
}
