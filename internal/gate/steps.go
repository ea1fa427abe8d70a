package gate

import (
	"fmt"
	"strings"

	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/selection"
	"github.com/intenthook/intenthook/internal/workspace"
)

// checkPath resolves the target (step 6): inside the root it goes on; under a
// temporary directory it is allowed without a record; elsewhere it is denied.
func (g *Gate) checkPath(t *target) *hook.Decision {
	t.res = g.resolver.Resolve(t.given)
	switch t.res.Place {
	case workspace.Inside:
		t.governed = true
		g.explain.step("resolve-path", "pass", hook.Ev("given", t.given), hook.Ev("path", t.res.Rel), hook.Ev("root", g.resolver.Root()))
		return nil
	case workspace.Temp:
		g.explain.step("resolve-path", "allow", hook.Ev("path", t.res.Abs), "(temporary directory)")
		return allowStop
	}
	if g.Config.OutsideWorkspace == config.Allow {
		g.explain.step("resolve-path", "allow", hook.Ev("path", t.res.Abs), "(outside_workspace: allow)")
		return allowStop
	}
	d := hook.Denial{
		Code:     hook.CodePathOutsideWorkspace,
		Headline: fmt.Sprintf("%s to %q is outside the workspace %s", t.tool, t.res.Abs, g.resolver.Root()),
		Why:      "files outside the governed workspace are not covered by any intent" + symlinkNote(t),
		Instead:  "write inside the workspace, or use a temporary directory (/tmp) for scratch files",
		Evidence: []string{hook.Ev("path", t.given), hook.Ev("resolved", t.res.Abs), hook.Ev("session", g.call.SessionID)},
	}.Decision()
	return &d
}

// subject names what a target is about: a file, or for a shell command
// without one (a destructive command), the command.
func subject(t *target) string {
	if t.given == "" && t.res.Abs == "" {
		return t.tool
	}
	if t.res.Rel == "" && t.res.Abs == "" {
		return fmt.Sprintf("%s %q", t.tool, t.given)
	}
	return fmt.Sprintf("%s to %q", t.tool, t.res.Rel)
}

func symlinkNote(t *target) string {
	if t.res.Linked {
		return " (the path resolves through a symbolic link)"
	}
	return ""
}

// checkProtected denies writes to governance files, even in scope (step 7).
func (g *Gate) checkProtected(t *target) *hook.Decision {
	glob, ok := g.Protected.Match(t.res.Rel)
	why := fmt.Sprintf("%s is governance state (matches %s); agents may not change it", t.res.Rel, glob)
	switch {
	case ok:
	case workspace.Nested(t.res.Rel):
		ok, why = true, t.res.Rel+" is inside a nested .orchestration/ directory; a governance directory below the root would let a subtree govern itself"
	default:
		if file, alias := g.Protected.Alias(g.Root, t.res.Abs); alias {
			ok, why = true, fmt.Sprintf("%s is a hard link to %s, which is governance state", t.res.Rel, file)
		}
	}
	if !ok {
		g.explain.step("protected", "pass")
		return nil
	}
	d := hook.Denial{
		Code:     hook.CodeProtectedPath,
		Headline: fmt.Sprintf("%s to %q: the file is protected", t.tool, t.res.Rel),
		Why:      why,
		Instead:  "leave governance files to the user; ask the user to make this change",
		Evidence: g.evidence(t),
	}.Decision()
	return &d
}

// checkIgnored lets .intentignore'd paths through without an intent (step 8).
func (g *Gate) checkIgnored(t *target) *hook.Decision {
	if !g.Ignore.Match(t.res.Rel, false) {
		g.explain.step("intentignore", "pass")
		return nil
	}
	t.scope = "IGNORED"
	g.explain.step("intentignore", "allow", hook.Ev("path", t.res.Rel), "(listed in .intentignore or .orchestration/.intentignore)")
	return allowStop
}

// checkIntentSelected needs an active intent for the session or agent (step 9).
func (g *Gate) checkIntentSelected(t *target) *hook.Decision {
	t.intentID, t.from = g.activeIntent()
	if t.intentID != "" {
		g.explain.step("intent-selected", "pass", hook.Ev("intent", t.intentID), hook.Ev("from", t.from))
		return nil
	}
	d := hook.Denial{
		Code:     hook.CodeIntentRequired,
		Headline: fmt.Sprintf("%s needs an active intent, and this session has none", subject(t)),
		Why:      "every change must be traceable to a declared intent; intents you can select:\n" + selection.Selectable(g.Catalog, g.Budget()/2),
		Instead:  "select the intent this work belongs to by running the shell command `intenthook select <ID>`, then retry",
		Evidence: g.evidence(t),
	}.Decision()
	return &d
}

// checkIntentStatus needs the intent to exist, be valid and be IN_PROGRESS (step 10).
func (g *Gate) checkIntentStatus(t *target) *hook.Decision {
	t.intent = g.Catalog.Find(t.intentID)
	var d hook.Decision
	switch {
	case t.intent == nil:
		d = selection.NotFound(g.Catalog, t.intentID, g.Budget(), g.evidence(t))
	case !t.intent.Valid():
		d = selection.Invalid(t.intent, g.evidence(t))
	case t.intent.Status != intents.InProgress:
		d = selection.NotInProgress(t.intent, g.evidence(t))
	default:
		g.explain.step("intent-status", "pass", hook.Ev("intent", t.intentID), hook.Ev("status", string(t.intent.Status)))
		return nil
	}
	return &d
}

// checkAllowedTools applies the intent's allowed_tools (step 11).
func (g *Gate) checkAllowedTools(t *target) *hook.Decision {
	if t.intent.AllowsTool(t.tool) {
		g.explain.step("allowed-tools", "pass", hook.Ev("tool", t.tool))
		return nil
	}
	d := hook.Denial{
		Code:     hook.CodeToolNotAllowed,
		Headline: fmt.Sprintf("%s may not write under intent %s", t.tool, t.intent.ID),
		Why:      fmt.Sprintf("%s allows only %s to write", t.intent.ID, strings.Join(t.intent.AllowedTools, ", ")),
		Instead:  "make the change with one of those tools",
		Evidence: g.evidence(t),
	}.Decision()
	return &d
}

// checkScope needs the path inside the intent's owned_scope (step 12).
func (g *Gate) checkScope(t *target) *hook.Decision {
	if pattern, ok := t.intent.Match(t.res.Rel); ok {
		t.pattern = pattern
		g.explain.step("scope", "pass", hook.Ev("path", t.res.Rel), hook.Ev("pattern", pattern))
		return nil
	}
	d := hook.Denial{
		Code:     hook.CodeScopeViolation,
		Headline: fmt.Sprintf("%s to %q is outside intent %s's owned_scope", t.tool, t.res.Rel, t.intent.ID),
		Why:      fmt.Sprintf("%s (%s) owns %s", t.intent.ID, t.intent.Name, t.intent.ScopeSummary()),
		Instead:  "change only files in that scope, select another intent (intenthook select <ID>), or " + g.widerScope(t.intent.ID),
		Evidence: g.evidence(t),
	}.Decision()
	return &d
}

// widerScope says how to ask for a wider scope: through intenthook's MCP
// server where it is registered for the calling agent, else through a
// person.
func (g *Gate) widerScope(id string) string {
	if g.env.MCPWired != nil && g.env.MCPWired(g.Root) {
		return "ask for a wider scope (the request_scope_change tool of intenthook's MCP server; a person approves it)"
	}
	return "ask the user to widen it (a person runs: intenthook intents scope " + id + " --add GLOB)"
}

// checkStale refuses to overwrite a file that changed since this session or
// agent last read or wrote it (step 13). The deny says who changed the file
// and what changed (staleDetail); an allow reads nothing more.
func (g *Gate) checkStale(t *target) *hook.Decision {
	if !g.Config.StaleCheck {
		return nil
	}
	seen, ok := g.recordedHash(t.res.Rel)
	now := t.hash()
	if !ok || seen == "" || now == "" || now == seen {
		g.explain.step("stale", "pass", hook.Ev("recorded", seen), hook.Ev("current", now))
		return nil
	}
	d := hook.Denial{
		Code:     hook.CodeStaleFile,
		Headline: fmt.Sprintf("%q changed since you last read it", t.res.Rel),
		Why:      "another agent or a person modified the file after your last read or write; writing now would overwrite their change",
		Instead:  "re-read the file, then retry",
		Evidence: append(g.evidence(t), hook.Ev("recorded", seen), hook.Ev("current", now)),
	}.Decision()
	d.Message += staleDetails{g}.staleDetail(t, seen, now)
	return &d
}

// checkApproval asks the human for intents that require approval and for
// delete tools (step 14).
func (g *Gate) checkApproval(t *target) *hook.Decision {
	var headline, why string
	switch {
	case t.intent.RequiresApproval:
		headline = fmt.Sprintf("intent %s (%s) requires approval for every change: %s %s", t.intent.ID, t.intent.Name, t.tool, t.res.Rel)
		why = "the intent says requires_approval: true"
	case t.delete:
		headline = fmt.Sprintf("%s deletes %s under intent %s", t.tool, t.res.Rel, t.intent.ID)
		why = "deleting a file with a delete tool is asked about"
	case g.call.Class == hook.ClassWrite && workspace.HardLinked(t.res.Abs):
		headline = fmt.Sprintf("%s writes %s, a file with more than one name (hard links): the change shows under the other names too", t.tool, t.res.Rel)
		why = "its other names may lie outside the intent's scope, or outside the workspace"
	default:
		g.explain.step("approval", "pass")
		return nil
	}
	t.scope = "PASS"
	d := ask(headline, why, g.evidence(t))
	return &d
}
