package audit

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/ledger"
)

// Each commit's ledger increment, judged against its parent on a real
// linear history: the audit of that one commit names it.
func TestIncrements(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "repo")
	if err := os.MkdirAll(filepath.Join(dir, ".orchestration"), 0o755); err != nil {
		t.Fatal(err)
	}
	git1 := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=Dev", "GIT_AUTHOR_EMAIL=dev@example.com", "GIT_COMMITTER_NAME=Dev", "GIT_COMMITTER_EMAIL=dev@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	l := &ledger.Ledger{Root: dir, ToolVersion: "test", Now: time.Now}
	n := 0
	appendRecord := func() {
		t.Helper()
		n++
		r := &ledger.Record{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", n), Metadata: ledger.Metadata{Intenthook: ledger.Meta{
			Event: ledger.EventPreToolUse, IntentID: "INT-001", SessionID: "s1", ToolName: "Write", ToolUseID: fmt.Sprint(n), Decision: "deny"}},
			Files: []ledger.File{}}
		if err := l.Append(context.Background(), r); err != nil {
			t.Fatal(err)
		}
		toLegacy(t, dir)
	}
	path := filepath.Join(dir, ".orchestration", "agent_trace.jsonl")
	edit := func(f func(lines []string) []string) {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := f(strings.Split(strings.TrimSuffix(string(data), "\n"), "\n"))
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit := func(msg string) string {
		git1("add", "-A")
		git1("commit", "-q", "--no-verify", "-m", msg)
		return git1("rev-parse", "HEAD")
	}
	if err := os.WriteFile(filepath.Join(dir, ".orchestration", "active_intents.yaml"), []byte("active_intents: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(".orchestration/state/\n"), 0o644)
	git1("init", "-q", "-b", "main")
	appendRecord()
	appendRecord()
	base := commit("base")

	appendRecord()
	appended := commit("appended")

	var original string
	edit(func(ls []string) []string {
		original = ls[0]
		ls[0] = strings.Replace(ls[0], `"session_id":"s1"`, `"session_id":"sX"`, 1)
		return ls
	})
	appendRecord() // the ledger grows: its size alone does not tell
	rewritten := commit("rewritten")
	edit(func(ls []string) []string { ls[0] = original; return ls })
	appendRecord()
	restored := commit("restored")

	edit(func(ls []string) []string { return append([]string{ls[0], `{"inserted":true}`}, ls[1:]...) })
	inserted := commit("inserted")
	edit(func(ls []string) []string { return append(ls[:1], ls[2:]...) })
	commit("inserted line removed")

	edit(func(ls []string) []string { return append(ls, `{"version":`) })
	broken := commit("a line that does not parse")

	edit(func(ls []string) []string { return ls[:len(ls)-1] })
	commit("the line that does not parse removed")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(data, `{"torn":`...), 0o644); err != nil {
		t.Fatal(err)
	}
	commit("a torn tail")
	if err := os.WriteFile(path, append(data, `{"torn":true}`+"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	tornContinued := commit("the torn tail continued")

	tests := []struct {
		name   string
		rng    string // default: the commit alone
		commit string
		want   []string // code: message substring, of the commit's ledger findings
	}{
		{"the root commit's ledger, from nothing", base, base, nil},
		{"appended", "", appended, nil},
		{"a line rewritten while the ledger grows", "", rewritten, []string{LedgerRewritten + ": line 1 of the parent"}},
		{"and restored: the restoring commit rewrites too", "", restored, []string{LedgerRewritten + ": line 1 of the parent"}},
		// Over both, the range's ends hold the same line 1: only the
		// increments tell.
		{"rewritten and restored in one range", appended + ".." + restored, rewritten, []string{LedgerRewritten + ": line 1 of the parent"}},
		{"a line inserted in the middle", "", inserted, []string{LedgerInvalid + ": lines added before line 2"}},
		{"a line that does not parse", "", broken, []string{LedgerInvalid + ": the lines it added do not verify: line"}},
		{"a torn tail continued", "", tornContinued, []string{LedgerInvalid + ": the parent", LedgerRewritten + ": line 6 of"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := tt.rng
			if rng == "" {
				rng = tt.commit + "^.." + tt.commit
			}
			res, err := Run(context.Background(), git.Open(dir), rng, false)
			if err != nil {
				t.Fatal(err)
			}
			var got []Finding
			for _, f := range res.Findings {
				if f.Path == ledger.FileName && f.Commit == tt.commit && !strings.HasPrefix(f.Message, "the ledger does not verify") {
					got = append(got, f)
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("findings %v, want %v", got, tt.want)
			}
			for i, w := range tt.want {
				if s := got[i].Code + ": " + got[i].Message; !strings.HasPrefix(s, w) {
					t.Errorf("finding %d = %q, want %q…", i, s, w)
				}
			}
		})
	}
}

func TestParseIncrements(t *testing.T) {
	const a, b = "aaaa", "bbbb"
	ids := map[string]bool{a: true, b: true}
	head := "diff --git a/L b/L\nindex 1..2 100644\n--- a/L\n+++ b/L\n"
	tests := []struct {
		name string
		out  string
		want map[string][]hunk
	}{
		{
			name: "appended after line 3",
			out:  a + "\n" + head + "@@ -3 +3,3 @@\n l3\n+l4\n+l5\n",
			want: map[string][]hunk{a: {{before: []byte("l3"), beforeLine: 3, added: [][]byte{[]byte("l4"), []byte("l5")}}}},
		},
		{
			name: "a new ledger, and a rewrite in the next commit",
			out:  a + "\n" + head + "@@ -0,0 +1,2 @@\n+l1\n+l2\n" + b + "\n" + head + "@@ -1,2 +1,2 @@\n-l1\n+x1\n l2\n",
			want: map[string][]hunk{
				a: {{added: [][]byte{[]byte("l1"), []byte("l2")}}},
				b: {{removed: 1, added: [][]byte{[]byte("x1")}, insertedAt: 2}},
			},
		},
		{
			name: "inserted in the middle",
			out:  a + "\n" + head + "@@ -1,2 +1,3 @@\n l1\n+in\n l2\n",
			want: map[string][]hunk{a: {{before: []byte("l1"), beforeLine: 1, added: [][]byte{[]byte("in")}, insertedAt: 2}}},
		},
		{
			name: "a torn tail completed, and one left",
			out:  a + "\n" + head + "@@ -1 +1,2 @@\n-l1\n\\ No newline at end of file\n+l1\n+l2\n\\ No newline at end of file\n",
			want: map[string][]hunk{a: {{removed: 1, tornFixed: true, addedTorn: true, added: [][]byte{[]byte("l1"), []byte("l2")}}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseIncrements([]byte(tt.out), ids)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}
