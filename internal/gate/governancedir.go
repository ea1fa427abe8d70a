package gate

import (
	"fmt"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/workspace"
)

// checkGovernanceDirs refuses a shell command that moves, renames, removes or replaces as a
// whole a directory that holds governance files (.orchestration, .claude, .git…), whatever the
// intent's scope: with the catalog gone the hooks would read the workspace as ungoverned, and
// the guard, whose picture lives in that directory, could not put it back. The root itself is
// left to the destructive check (rm -rf . asks; find . -name x -delete deletes below it).
func (g *Gate) checkGovernanceDirs(deletes []string) (hook.Decision, bool) {
	for _, p := range deletes {
		res := g.resolver.Resolve(p)
		if res.Place != workspace.Inside || !g.Protected.Holds(res.Rel) {
			continue
		}
		t := g.newTarget(p, g.call.ToolName, false)
		t.res, t.removes = res, true
		g.denied = t
		g.explain.step("governance-dir", "deny", hook.Ev("path", res.Rel))
		return hook.Denial{
			Code:     hook.CodeProtectedPath,
			Headline: fmt.Sprintf("%s moves or removes %q, which holds governance files", g.call.ToolName, res.Rel),
			Why:      "a directory that holds the rules (the catalog, settings, state, the ledger, an agent's hook settings, git's files) may not be moved, renamed, removed or replaced as a whole, whatever the scope: without it the hooks would read the workspace as ungoverned",
			Instead:  "leave the directory where it is and change only the files your intent owns; ask the user if it must move",
			Evidence: []string{hook.Ev("path", res.Rel), hook.Ev("command", safetext.OneLine(g.call.Command)), hook.Ev("session", g.call.SessionID)},
		}.Decision(), true
	}
	return hook.Decision{}, false
}
