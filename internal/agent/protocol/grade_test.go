package protocol

import (
	"strings"
	"testing"
)

// TestGradeOf: the grade is the weakest guarantee that holds, from what the
// agent's hooks reach, its sandbox's settings and whether the sandbox runs
// here; the basis names what the grade rests on.
func TestGradeOf(t *testing.T) {
	hook := Check{Status: Pass, Name: "claude hook PreToolUse"}
	sandbox := func(s Status) []Check {
		return []Check{hook, {Status: s, Name: "claude sandbox"}}
	}
	here := func(settings, here Status) []Check {
		return append(sandbox(settings), Check{Status: here, Name: "claude sandbox here", Detail: "bwrap is not on PATH"})
	}
	claude := Agent{Name: "claude", Title: "Claude Code", Verified: "2.1.330, live"}
	tests := []struct {
		name   string
		agent  Agent
		checks []Check
		want   Grade
		why    string
		basis  string
	}{
		{"hooks, no sandbox", claude, []Check{hook}, Guarded, "without an OS sandbox", "Claude Code's hooks before and after each tool [2.1.330, live]; no claude sandbox line"},
		{"sandbox complete, runs here", claude, here(Pass, Pass), Enforced, "read-only", "claude sandbox ✓; claude sandbox here ✓"},
		{"sandbox complete, runs here, no mods", claude, append(here(Pass, Pass), Check{Status: Pass, Name: "claude mods"}), Enforced, "read-only", "claude sandbox here ✓"},
		{"sandbox complete, runs here, a mod present", claude, append(here(Pass, Pass), Check{Status: Warn, Name: "claude mods"}), Guarded, "its own process (see claude mods)", "claude sandbox here ✓; claude mods !"},
		{"sandbox complete, cannot run here", claude, here(Pass, Warn), Guarded, "cannot run here (see claude sandbox here: bwrap is not on PATH)", "claude sandbox ✓; claude sandbox here !"},
		{"sandbox complete, not probed", claude, here(Pass, Skip), Guarded, "cannot run here", "claude sandbox here -"},
		{"sandbox complete, no probe line", claude, sandbox(Pass), Guarded, "not known", "no claude sandbox here line"},
		{"sandbox with a way out", claude, here(Warn, Pass), Guarded, "off or not complete (see claude sandbox)", "claude sandbox !"},
		{"another agent's sandbox lines", Agent{Name: "codex"}, here(Pass, Pass), Guarded, "without an OS sandbox", "codex's hooks"},
		{"an agent with hooks on both sides", Agent{Name: "crush", Title: "Crush"}, nil, Guarded, "without an OS sandbox", "Crush's hooks before and after each tool; no crush sandbox line"},
		{"no hook after a tool", Agent{Name: "crush", Title: "Crush", NoPostTool: true}, nil, AfterTheFact, "none runs after it", "Crush runs no hook after a tool"},
		{"no hook after, even sandboxed", Agent{Name: "claude", NoPostTool: true}, here(Pass, Pass), AfterTheFact, "none runs after it", "claude runs no hook after a tool"},
		{"no hook before a tool", Agent{Name: "junie", NoPreTool: true}, nil, AfterTheFact, "no hook runs before a tool", "junie runs no hook before a tool"},
		{"a deny not held here", Agent{Name: "codex", Title: "Codex CLI"}, []Check{{Status: Warn, Name: "codex deny held"}}, AfterTheFact, "not known to stop every tool here (see codex deny held)", "Codex CLI's hooks before and after each tool; codex deny held !"},
		{"hooks that do not run", Agent{Name: "copilot", Title: "Copilot CLI"}, []Check{{Status: Fail, Name: "copilot hooks run"}}, AfterTheFact, "wired where it does not run them (see copilot hooks run)", "copilot hooks run ✗"},
		{"a deny held", Agent{Name: "codex", Title: "Codex CLI"}, []Check{{Status: Pass, Name: "codex deny held"}}, Guarded, "without an OS sandbox", "no codex sandbox line"},
		{"another agent's deny line", Agent{Name: "crush"}, []Check{{Status: Warn, Name: "codex deny held"}}, Guarded, "without an OS sandbox", "crush's hooks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, why, basis := GradeOf(tt.agent, tt.checks)
			b := strings.Join(basis, "; ")
			if got != tt.want || !strings.Contains(why, tt.why) || !strings.Contains(b, tt.basis) {
				t.Errorf("GradeOf = %q, %q, %q; want %q, …%s…, …%s…", got, why, b, tt.want, tt.why, tt.basis)
			}
		})
	}
}

// TestGradeLine: after the fact is a warning with what makes up for it;
// the agent's note follows the reason, and what the grade rests on ends
// the line.
func TestGradeLine(t *testing.T) {
	c := GradeLine(Agent{Name: "crush", Title: "Crush", NoPostTool: true, GradeNote: "subagents run unhooked"}, nil)
	if c.Status != Warn || c.Name != "crush grade" || !strings.HasPrefix(c.Detail, "after the fact: ") || !strings.HasSuffix(c.Detail, "; subagents run unhooked (rests on: Crush runs no hook after a tool)") || !strings.Contains(c.Hint, "init --git-hook") {
		t.Errorf("GradeLine = %+v", c)
	}
	if c := GradeLine(Agent{Name: "gemini"}, nil); c.Status != Pass || !strings.HasPrefix(c.Detail, "guarded: ") || !strings.Contains(c.Detail, "(rests on: gemini's hooks before and after each tool; no gemini sandbox line") {
		t.Errorf("GradeLine = %+v", c)
	}
}
