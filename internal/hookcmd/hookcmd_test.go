package hookcmd

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		args string
		want Line
		ok   bool
	}{
		{"pre", Line{Name: "pre"}, true},
		{"post --agent gemini", Line{Name: "post", Flags: Flags{Agent: "gemini"}}, true},
		{"context --agent=qwen --explain", Line{Name: "context", Flags: Flags{Agent: "qwen", Explain: true}}, true},
		{"--root /w pre", Line{Name: "pre", Root: "/w"}, true},
		{"pre --root=/w --agent codex", Line{Name: "pre", Root: "/w", Flags: Flags{Agent: "codex"}}, true},
		// Everything else is left to the full binary.
		{"", Line{}, false},
		{"select INT-1", Line{}, false},
		{"pre extra", Line{}, false},
		{"pre --help", Line{}, false},
		{"pre -h", Line{}, false},
		{"pre --agent", Line{}, false},
		{"pre --root", Line{}, false},
		{"pre --explain=false", Line{}, false},
		{"pre --bogus", Line{}, false},
		{"--root /w", Line{}, false},
		{"pre -- post", Line{}, false},
	}
	for _, tt := range tests {
		got, ok := Parse(strings.Fields(tt.args))
		if ok != tt.ok || got != tt.want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v, %v", tt.args, got, ok, tt.want, tt.ok)
		}
	}
}
