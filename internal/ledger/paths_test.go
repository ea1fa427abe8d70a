package ledger

import "testing"

func TestIsPath(t *testing.T) {
	for _, c := range []struct {
		rel  string
		want bool
	}{
		{FileName, true},
		{".orchestration/ledger/w1/2026-11/000001.jsonl", true},
		{".orchestration/ledger/w1/notes.md", false},
		{".orchestration/ledger", false},
		{"src/agent_trace.jsonl", false},
		{".orchestration/state/x.jsonl", false},
	} {
		if got := IsPath(c.rel); got != c.want {
			t.Errorf("IsPath(%q) = %v, want %v", c.rel, got, c.want)
		}
	}
}
