package audit

import (
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/ledger"
)

func TestMarkdown(t *testing.T) {
	head := ledger.Head{Seq: 7, Hash: "sha256:ab"}
	tests := []struct {
		name string
		res  Result
		want string
	}{
		{
			name: "clean",
			res:  Result{Range: "a..b", Commits: 2, Head: head},
			want: "### intenthook audit passed\n\n`a..b`: 2 commit(s), 0 error(s), 0 warning(s). Ledger head `7:sha256:ab`.\n",
		},
		{
			name: "findings escaped",
			res: Result{Range: "a..b", Commits: 1, Head: head, Findings: []Finding{
				{Commit: "0123456789abcdef", Path: "x|y.go", Severity: Error, Message: "out"},
				{Commit: "0123456789abcdef", Path: "z.go", Severity: Warning, Message: "un`traced"},
			}},
			want: "### intenthook audit failed\n\n`a..b`: 1 commit(s), 1 error(s), 1 warning(s). Ledger head `7:sha256:ab`.\n\n" +
				"| commit | path | severity | finding |\n| --- | --- | --- | --- |\n" +
				"| `0123456789ab` | `x\\|y.go` | error | out |\n" +
				"| `0123456789ab` | `z.go` | warning | un'traced |\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			tt.res.Markdown(&b)
			if b.String() != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
			if got := tt.res.Failed(); got != strings.Contains(tt.want, "failed") {
				t.Fatalf("Failed() = %v", got)
			}
		})
	}
}

func TestFirstRemoved(t *testing.T) {
	tests := []struct {
		name, diff string
		line       int
		removed    bool
	}{
		{"no change", "", 0, false},
		{"appended at the end", "diff --git a/l b/l\n--- a/l\n+++ b/l\n@@ -3,0 +4,2 @@\n+{\"a\":1}\n+{\"b\":2}\n", 0, false},
		{"interleaved by a union merge", "--- a/l\n+++ b/l\n@@ -1,0 +2 @@\n+x\n@@ -2,0 +4 @@\n+y\n", 0, false},
		{"a line rewritten", "--- a/l\n+++ b/l\n@@ -2 +2 @@\n-{\"seq\":2}\n+{\"seq\":9}\n", 2, true},
		{"the tail removed", "--- a/l\n+++ b/l\n@@ -7,3 +6,0 @@\n-a\n-b\n-c\n", 7, true},
		{"added text like a header", "--- a/l\n+++ b/l\n@@ -1,0 +2 @@\n+--- x\n", 0, false},
		{"removed text like a header", "--- a/l\n+++ b/l\n@@ -4 +3,0 @@\n--- x\n", 4, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line, removed := firstRemoved([]byte(tt.diff))
			if line != tt.line || removed != tt.removed {
				t.Errorf("got %d, %v; want %d, %v", line, removed, tt.line, tt.removed)
			}
		})
	}
}
