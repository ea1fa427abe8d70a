package cli

import (
	"strings"
	"testing"
)

func TestParseHookLine(t *testing.T) {
	tests := []struct {
		args string
		want hookLine
		ok   bool
	}{
		{"pre", hookLine{name: "pre"}, true},
		{"post --agent gemini", hookLine{name: "post", flags: hookFlags{agent: "gemini"}}, true},
		{"context --agent=qwen --explain", hookLine{name: "context", flags: hookFlags{agent: "qwen", explain: true}}, true},
		{"--root /w pre", hookLine{name: "pre", root: "/w"}, true},
		{"pre --root=/w --agent codex", hookLine{name: "pre", root: "/w", flags: hookFlags{agent: "codex"}}, true},
		// Everything else is left to cobra.
		{"", hookLine{}, false},
		{"select INT-1", hookLine{}, false},
		{"pre extra", hookLine{}, false},
		{"pre --help", hookLine{}, false},
		{"pre -h", hookLine{}, false},
		{"pre --agent", hookLine{}, false},
		{"pre --root", hookLine{}, false},
		{"pre --explain=false", hookLine{}, false},
		{"pre --bogus", hookLine{}, false},
		{"--root /w", hookLine{}, false},
		{"pre -- post", hookLine{}, false},
	}
	for _, tt := range tests {
		got, ok := parseHookLine(strings.Fields(tt.args))
		if ok != tt.ok || got != tt.want {
			t.Errorf("parseHookLine(%q) = %+v, %v; want %+v, %v", tt.args, got, ok, tt.want, tt.ok)
		}
	}
}
