package console

import (
	"reflect"
	"testing"

	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/ledger"
)

// TestBlame: each line goes to the newest record with a range over it that
// still hashes the same, at its lines or moved (a short range); lines
// changed since, or no record's, are -1; a record that is not a successful
// write takes none.
func TestBlame(t *testing.T) {
	rec := func(id, session string, agent ledger.NullString, event string, ranges ...ledger.Range) ledger.Record {
		r := ledger.Record{ID: id, Files: []ledger.File{{Path: "a.go", Conversations: []ledger.Conversation{{Ranges: ranges}}}}}
		r.Metadata.Intenthook = ledger.Meta{Event: event, SessionID: session, AgentID: agent, ToolName: "Edit", Success: true}
		return r
	}
	span := func(first, last int, text string) ledger.Range {
		return ledger.Range{StartLine: first, EndLine: last, ContentHash: digest.Bytes([]byte(text))}
	}
	post := ledger.EventPostToolUse
	tests := []struct {
		name    string
		content string
		recs    []ledger.Record // newest first
		runs    []BlameRun
		ids     []string
	}{
		{"none", "a\nb\n", nil, []BlameRun{{1, 2, -1}}, nil},
		{"whole file", "a\nb", []ledger.Record{rec("w", "s1", "", post, span(1, 2, "a\nb"))}, []BlameRun{{1, 2, 0}}, []string{"w"}},
		{"changed since", "a\nB\n", []ledger.Record{rec("w", "s1", "", post, span(1, 2, "a\nb\n"))}, []BlameRun{{1, 2, -1}}, nil},
		{"moved down", "x\ny\na\nb\n", []ledger.Record{rec("e", "s1", "", post, span(1, 2, "a\nb\n"))}, []BlameRun{{1, 2, -1}, {3, 4, 0}}, []string{"e"}},
		{"a newer range keeps its lines", "a\nB\nc\n", []ledger.Record{
			rec("new", "s2", "ag1", post, span(2, 2, "B\n")),
			rec("old", "s1", "", post, span(1, 3, "a\nB\nc\n")),
		}, []BlameRun{{1, 1, 1}, {2, 2, 0}, {3, 3, 1}}, []string{"new", "old"}},
		{"not a write", "a\n", []ledger.Record{rec("d", "s1", "", ledger.EventPreToolUse, span(1, 1, "a\n"))}, []BlameRun{{1, 1, -1}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := blame("a.go", []byte(tt.content), tt.recs)
			if !reflect.DeepEqual(b.Runs, tt.runs) {
				t.Errorf("runs %v, want %v", b.Runs, tt.runs)
			}
			var ids []string
			for _, r := range b.Records {
				ids = append(ids, r.ID)
			}
			if !reflect.DeepEqual(ids, tt.ids) {
				t.Errorf("records %v, want %v", ids, tt.ids)
			}
		})
	}
}

// TestBlamePath: a path of the workspace, cleaned; none out of it, with
// "..", absolute, with a backslash or under .git.
func TestBlamePath(t *testing.T) {
	for in, want := range map[string]string{"src/a.go": "src/a.go", "./src//a.go": "src/a.go", "": "", ".": "", ".git/config": "", ".git": "", ".github/x.yml": ".github/x.yml",
		"../x": "", "src/../../x": "", "/etc/passwd": "", `src\a.go`: ""} {
		got, err := blamePath(in)
		if got != want || (want == "") != (err != nil) {
			t.Errorf("blamePath(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// TestCheckRange: A..B as git reads one range; nothing it could read as an
// option, a path or two arguments.
func TestCheckRange(t *testing.T) {
	for r, ok := range map[string]bool{
		"main..HEAD": true, "abc123..def456": true, "HEAD~3..HEAD": true, "v1.2...v1.3": false, "origin/main..feature/x": true, "main..": true,
		"HEAD": false, "--output=x..HEAD": false, "main..-p": false, "main..HEAD x": false, "main..HEAD\n": false, "main..HEAD:src": false,
	} {
		if err := checkRange(r); (err == nil) != ok {
			t.Errorf("checkRange(%q) = %v, want ok %v", r, err, ok)
		}
	}
}
