package protocol

// Grade is what intenthook can hold a wired agent to (docs/agents.md,
// "Grades"): the weakest guarantee that holds for it here.
type Grade string

// The grades, strongest first.
const (
	// Enforced: an OS sandbox keeps every governance file read-only to the
	// agent's commands, confines their writes to the workspace and temp,
	// and has no per-command way out; the hooks run outside it.
	Enforced Grade = "enforced"
	// Guarded: hooks before and after each tool, the guard and the
	// backstop; a program the hooks cannot model can still write what the
	// user can (docs/threat-model.md).
	Guarded Grade = "guarded"
	// AfterTheFact: no hook before a tool, or none after one: precommit and
	// audit find what the hooks could not stop or put back.
	AfterTheFact Grade = "after the fact"
)

// SandboxCheck names the check an agent's Check gives for its OS sandbox;
// it passes only when the sandbox holds every governance file read-only
// with its escape shut (Claude Code's, after init --sandbox).
func SandboxCheck(agent string) string { return agent + " sandbox" }

// GradeOf grades agent a from what its hooks reach and the checks its
// Check gave for this workspace, and says why.
func GradeOf(a Agent, checks []Check) (Grade, string) {
	switch {
	case a.NoPreTool:
		return AfterTheFact, "no hook runs before a tool: precommit and audit find what it wrote"
	case a.NoPostTool:
		return AfterTheFact, "a hook checks each tool before it runs, none runs after it: no guard puts back the rules and no backstop sees what a command wrote; precommit and audit find the rest"
	}
	for _, c := range checks {
		if c.Name != SandboxCheck(a.Name) {
			continue
		}
		if c.Status == Pass {
			return Enforced, "its OS sandbox keeps every governance file read-only and commands' writes in the workspace and temp, with no way out per command; the hooks run outside it"
		}
		return Guarded, "hooks, the guard and the backstop; its OS sandbox is off or not complete (see " + c.Name + "), so a program the hooks cannot model can write what the user can"
	}
	return Guarded, "hooks, the guard and the backstop; without an OS sandbox a program the hooks cannot model can write what the user can (docs/threat-model.md)"
}

// GradeLine is doctor's line for a's grade: a warning when it is after the
// fact, saying what makes up for it.
func GradeLine(a Agent, checks []Check) Check {
	g, why := GradeOf(a, checks)
	if a.GradeNote != "" {
		why += "; " + a.GradeNote
	}
	c := Check{Status: Pass, Name: a.Name + " grade", Detail: string(g) + ": " + why}
	if g == AfterTheFact {
		c.Status = Warn
		c.Hint = "install intenthook's pre-commit hook (intenthook init --git-hook) and run intenthook audit in CI"
	}
	return c
}
