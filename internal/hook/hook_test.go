package hook

import (
	"strings"
	"testing"
)

func TestPairCall(t *testing.T) {
	call := func(event, session, agent, tool, input string) *Call {
		return &Call{Event: event, SessionID: session, AgentID: agent, ToolName: tool, Input: []byte(input)}
	}
	id := func(c *Call) string { c.PairCall(); return c.ToolUseID }
	pre := id(call(PreToolUse, "g1", "", "run_shell_command", `{"command":"make","description":"build"}`))
	if !strings.HasPrefix(pre, PairPrefix) || len(pre) != len(PairPrefix)+24 {
		t.Fatalf("id %q", pre)
	}
	same := []*Call{
		call(PostToolUse, "g1", "", "run_shell_command", `{"command":"make","description":"build"}`),
		call(PostToolUseFailure, "g1", "", "run_shell_command", `{"command":"make","description":"build"}`),
	}
	for i, c := range same {
		if got := id(c); got != pre {
			t.Errorf("same call %d: %q, want %q", i, got, pre)
		}
	}
	other := []*Call{
		call(PreToolUse, "g2", "", "run_shell_command", `{"command":"make","description":"build"}`),
		call(PreToolUse, "g1", "sub-1", "run_shell_command", `{"command":"make","description":"build"}`),
		call(PreToolUse, "g1", "", "write_file", `{"command":"make","description":"build"}`),
		call(PreToolUse, "g1", "", "run_shell_command", `{"command":"make test","description":"build"}`),
	}
	for i, c := range other {
		if got := id(c); got == pre {
			t.Errorf("other call %d got the same id", i)
		}
	}
	kept := []*Call{
		{Event: PreToolUse, SessionID: "g1", ToolName: "Bash", ToolUseID: "toolu_1"},
		{Event: SessionStart, SessionID: "g1"},
		{Event: PreToolUse, ToolName: "Bash"}, // no session: nothing to pair within
	}
	for i, c := range kept {
		before := c.ToolUseID
		if c.PairCall(); c.ToolUseID != before {
			t.Errorf("call %d: id %q, want %q", i, c.ToolUseID, before)
		}
	}
}

func TestIgnored(t *testing.T) {
	tests := []struct {
		event string
		want  bool
	}{
		{PermissionDenied, true},
		{PostToolBatch, true},
		{PreModelSwitch, true},
		{PostModelSwitch, true},
		{DirectoryAdded, true},
		{CwdChanged, true},
		{PreToolUse, false},
		{PostToolUse, false},
		{PostToolUseFailure, false},
		{SessionStart, false},
		{UserPromptSubmit, false},
		{Stop, false},
		{SessionEnd, false},
		{"", false},
		{"permissiondenied", false},
	}
	for _, tt := range tests {
		if got := Ignored(tt.event); got != tt.want {
			t.Errorf("Ignored(%q) = %v, want %v", tt.event, got, tt.want)
		}
	}
}
