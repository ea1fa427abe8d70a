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
