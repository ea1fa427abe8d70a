package protocol

import (
	"cmp"
	"strings"
)

// Grade is what intenthook can hold a wired agent to (docs/agents.md,
// "Grades"): the weakest guarantee that holds for it here.
type Grade string

// The grades, strongest first.
const (
	// Enforced: an OS sandbox keeps every governance file read-only to the
	// agent's commands, confines their writes to the workspace and temp,
	// and has no per-command way out, and it can run on this machine; the
	// hooks run outside it.
	Enforced Grade = "enforced"
	// Guarded: hooks before and after each tool, the guard and the
	// backstop; a program the hooks cannot model can still write what the
	// user can (docs/threat-model.md).
	Guarded Grade = "guarded"
	// AfterTheFact: no hook before a tool, or none after one: precommit and
	// audit find what the hooks could not stop or put back.
	AfterTheFact Grade = "after the fact"
)

// SandboxCheck names the check an agent's Check gives for its OS sandbox's
// settings; it passes only when the sandbox holds every governance file
// read-only with its escape shut (Claude Code's, after init --sandbox).
func SandboxCheck(agent string) string { return agent + " sandbox" }

// SandboxHereCheck names the check an agent's Check gives for whether its
// OS sandbox can run on this machine (Claude Code's on Linux: bwrap and
// socat on PATH, and bwrap able to run a command); it passes only when it
// can. An agent whose sandbox settings pass without it is not enforced:
// a sandbox that cannot start leaves commands unsandboxed.
func SandboxHereCheck(agent string) string { return agent + " sandbox here" }

// DenyHeldCheck names the check an agent's Check gives when a deny before
// a tool is known not to hold here for some tool (Codex's apply_patch on
// Windows); short of a pass it makes the agent after the fact.
func DenyHeldCheck(agent string) string { return agent + " deny held" }

// HooksRunCheck names the check an agent's Check gives when its wiring is
// known not to run (Copilot CLI's hooks in a plugin only); a failure makes
// the agent after the fact.
func HooksRunCheck(agent string) string { return agent + " hooks run" }

// ModsCheck names the check an agent's Check gives for code it loads into
// its own process that sees each tool call before the hooks (Claude Code's
// mods); while it does not pass, the agent is not enforced: such code can
// answer or rewrite a call, and the sandbox does not confine the agent's
// own process.
func ModsCheck(agent string) string { return agent + " mods" }

// GradeOf grades agent a from what its hooks reach and the checks its
// Check gave for this workspace, and says why and what the grade rests on:
// the agent's protocol as verified, and the doctor lines it is made from.
func GradeOf(a Agent, checks []Check) (g Grade, why string, basis []string) {
	title := cmp.Or(a.Title, a.Name)
	verified := ""
	if a.Verified != "" {
		verified = " [" + a.Verified + "]"
	}
	switch {
	case a.NoPreTool:
		return AfterTheFact, "no hook runs before a tool: precommit and audit find what it wrote", []string{title + " runs no hook before a tool" + verified}
	case a.NoPostTool:
		return AfterTheFact, "a hook checks each tool before it runs, none runs after it: no guard puts back the rules and no backstop sees what a command wrote; precommit and audit find the rest", []string{title + " runs no hook after a tool" + verified}
	}
	hooks := title + "'s hooks before and after each tool" + verified
	if run := find(checks, HooksRunCheck(a.Name)); run != nil && run.Status == Fail {
		return AfterTheFact, "its hooks are wired where it does not run them (see " + run.Name + "): precommit and audit find what it wrote",
			[]string{mark(run)}
	}
	if held := find(checks, DenyHeldCheck(a.Name)); held != nil && held.Status != Pass {
		return AfterTheFact, "a hook runs before each tool, but its deny is not known to stop every tool here (see " + held.Name + "): precommit and audit find what it wrote",
			[]string{hooks, mark(held)}
	}
	sandbox, here := find(checks, SandboxCheck(a.Name)), find(checks, SandboxHereCheck(a.Name))
	switch {
	case sandbox == nil:
		return Guarded, "hooks, the guard and the backstop; without an OS sandbox a program the hooks cannot model can write what the user can (docs/threat-model.md)",
			[]string{hooks, "no " + SandboxCheck(a.Name) + " line: intenthook configures no OS sandbox for it"}
	case sandbox.Status != Pass:
		return Guarded, "hooks, the guard and the backstop; its OS sandbox is off or not complete (see " + sandbox.Name + "), so a program the hooks cannot model can write what the user can",
			[]string{hooks, mark(sandbox)}
	case here == nil:
		return Guarded, "hooks, the guard and the backstop; its OS sandbox is configured, but whether it can run here is not known, so a program the hooks cannot model may write what the user can",
			[]string{hooks, mark(sandbox), "no " + SandboxHereCheck(a.Name) + " line"}
	case here.Status != Pass:
		return Guarded, "hooks, the guard and the backstop; its OS sandbox is configured but cannot run here (see " + here.Name + ": " + here.Detail + "), so its commands run unsandboxed and a program the hooks cannot model can write what the user can",
			[]string{hooks, mark(sandbox), mark(here)}
	}
	if mods := find(checks, ModsCheck(a.Name)); mods != nil && mods.Status != Pass {
		return Guarded, "hooks, the guard and the backstop, and its OS sandbox runs here; but code it loads into its own process (see " + mods.Name + ") sees each tool call before the hooks and runs outside the sandbox",
			[]string{hooks, mark(sandbox), mark(here), mark(mods)}
	}
	return Enforced, "its OS sandbox keeps every governance file read-only and commands' writes in the workspace and temp, with no way out per command, and it runs here; the hooks run outside it",
		[]string{hooks, mark(sandbox), mark(here)}
}

// find returns the check named name, nil when there is none.
func find(checks []Check, name string) *Check {
	for i := range checks {
		if checks[i].Name == name {
			return &checks[i]
		}
	}
	return nil
}

// mark names a check with its outcome: "claude sandbox ✓".
func mark(c *Check) string { return c.Name + " " + string(c.Status) }

// GradeLine is doctor's line for a's grade, ending with what it rests on:
// a warning when it is after the fact, saying what makes up for it.
func GradeLine(a Agent, checks []Check) Check {
	g, why, basis := GradeOf(a, checks)
	if a.GradeNote != "" {
		why += "; " + a.GradeNote
	}
	c := Check{Status: Pass, Name: a.Name + " grade", Detail: string(g) + ": " + why + " (rests on: " + strings.Join(basis, "; ") + ")"}
	if g == AfterTheFact {
		c.Status = Warn
		c.Hint = "install intenthook's pre-commit hook (intenthook init --git-hook) and run intenthook audit in CI"
	}
	return c
}
