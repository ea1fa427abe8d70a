package protocol

import (
	"strings"
	"testing"
)

// TestGradeOf: the grade is the weakest guarantee that holds, from what the
// agent's hooks reach and its sandbox check here.
func TestGradeOf(t *testing.T) {
	sandbox := func(s Status) []Check {
		return []Check{{Status: Pass, Name: "claude hook PreToolUse"}, {Status: s, Name: "claude sandbox"}}
	}
	tests := []struct {
		name   string
		agent  Agent
		checks []Check
		want   Grade
		why    string
	}{
		{"hooks, no sandbox", Agent{Name: "claude"}, []Check{{Status: Pass, Name: "claude hook PreToolUse"}}, Guarded, "without an OS sandbox"},
		{"sandbox complete", Agent{Name: "claude"}, sandbox(Pass), Enforced, "read-only"},
		{"sandbox with a way out", Agent{Name: "claude"}, sandbox(Warn), Guarded, "off or not complete (see claude sandbox)"},
		{"another agent's sandbox line", Agent{Name: "codex"}, sandbox(Pass), Guarded, "without an OS sandbox"},
		{"no hook after a tool", Agent{Name: "crush", NoPostTool: true}, nil, AfterTheFact, "none runs after it"},
		{"no hook after, even sandboxed", Agent{Name: "claude", NoPostTool: true}, sandbox(Pass), AfterTheFact, "none runs after it"},
		{"no hook before a tool", Agent{Name: "junie", NoPreTool: true}, nil, AfterTheFact, "no hook runs before a tool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, why := GradeOf(tt.agent, tt.checks)
			if got != tt.want || !strings.Contains(why, tt.why) {
				t.Errorf("GradeOf = %q, %q; want %q, …%s…", got, why, tt.want, tt.why)
			}
		})
	}
}

// TestGradeLine: after the fact is a warning with what makes up for it;
// the agent's note follows the reason.
func TestGradeLine(t *testing.T) {
	c := GradeLine(Agent{Name: "crush", NoPostTool: true, GradeNote: "subagents run unhooked"}, nil)
	if c.Status != Warn || c.Name != "crush grade" || !strings.HasPrefix(c.Detail, "after the fact: ") || !strings.HasSuffix(c.Detail, "; subagents run unhooked") || !strings.Contains(c.Hint, "init --git-hook") {
		t.Errorf("GradeLine = %+v", c)
	}
	if c := GradeLine(Agent{Name: "gemini"}, nil); c.Status != Pass || !strings.HasPrefix(c.Detail, "guarded: ") {
		t.Errorf("GradeLine = %+v", c)
	}
}
