package gate

import (
	"fmt"
	"strings"

	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/workspace"
)

// checkPath resolves the target (step 6): inside the root it goes on; under a
// temporary directory it is allowed without a record; elsewhere it is denied.
func (g *Gate) checkPath(t *target) *hook.Decision {
	t.res = g.resolver.Resolve(t.given)
	switch t.res.Place {
	case workspace.Inside:
		t.governed = true
		g.explain.step("resolve-path", "pass", ev("given", t.given), ev("path", t.res.Rel), ev("root", g.resolver.Root()))
		return nil
	case workspace.Temp:
		g.explain.step("resolve-path", "allow", ev("path", t.res.Abs), "(temporary directory)")
		return allowStop
	}
	if g.Config.OutsideWorkspace == config.Allow {
		g.explain.step("resolve-path", "allow", ev("path", t.res.Abs), "(outside_workspace: allow)")
		return allowStop
	}
	d := denial{
		code:     CodePathOutsideWorkspace,
		headline: fmt.Sprintf("%s to %q is outside the workspace %s", t.tool, t.res.Abs, g.resolver.Root()),
		why:      "files outside the governed workspace are not covered by any intent" + symlinkNote(t),
		instead:  "write inside the workspace, or use a temporary directory (/tmp) for scratch files",
		evidence: []string{ev("path", t.given), ev("resolved", t.res.Abs), ev("session", g.call.SessionID)},
	}.decision()
	return &d
}

// subject names what a target is about: a file, or for a shell command
// without one (a destructive command), the command.
func subject(t *target) string {
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
	glob, ok := g.protected.Match(t.res.Rel)
	why := fmt.Sprintf("%s is governance state (matches %s); agents may not change it", t.res.Rel, glob)
	switch {
	case ok:
	case workspace.Nested(t.res.Rel):
		ok, why = true, t.res.Rel+" is inside a nested .orchestration/ directory; a governance directory below the root would let a subtree govern itself"
	default:
		if file, alias := g.protected.Alias(g.Root, t.res.Abs); alias {
			ok, why = true, fmt.Sprintf("%s is a hard link to %s, which is governance state", t.res.Rel, file)
		}
	}
	if !ok {
		g.explain.step("protected", "pass")
		return nil
	}
	d := denial{
		code:     CodeProtectedPath,
		headline: fmt.Sprintf("%s to %q: the file is protected", t.tool, t.res.Rel),
		why:      why,
		instead:  "leave governance files to the user; ask the user to make this change",
		evidence: g.evidence(t),
	}.decision()
	return &d
}

// checkIgnored lets .intentignore'd paths through without an intent (step 8).
func (g *Gate) checkIgnored(t *target) *hook.Decision {
	if !g.ignore.Match(t.res.Rel, false) {
		g.explain.step("intentignore", "pass")
		return nil
	}
	t.scope = "IGNORED"
	g.explain.step("intentignore", "allow", ev("path", t.res.Rel), "(listed in .orchestration/.intentignore)")
	return allowStop
}

// checkIntentSelected needs an active intent for the session or agent (step 9).
func (g *Gate) checkIntentSelected(t *target) *hook.Decision {
	t.intentID, t.from = g.activeIntent()
	if t.intentID != "" {
		g.explain.step("intent-selected", "pass", ev("intent", t.intentID), ev("from", t.from))
		return nil
	}
	d := denial{
		code:     CodeIntentRequired,
		headline: fmt.Sprintf("%s needs an active intent, and this session has none", subject(t)),
		why:      "every change must be traceable to a declared intent; intents you can select:\n" + selectable(g.Catalog, g.Budget()/2),
		instead:  "select the intent this work belongs to by running the shell command `intenthook select <ID>`, then retry",
		evidence: g.evidence(t),
	}.decision()
	return &d
}

// checkIntentStatus needs the intent to exist, be valid and be IN_PROGRESS (step 10).
func (g *Gate) checkIntentStatus(t *target) *hook.Decision {
	t.intent = g.Catalog.Find(t.intentID)
	var d hook.Decision
	switch {
	case t.intent == nil:
		d = g.notFound(t.intentID, g.evidence(t))
	case !t.intent.Valid():
		d = invalidIntent(t.intent, g.evidence(t))
	case t.intent.Status != intents.InProgress:
		d = notInProgress(t.intent, g.evidence(t))
	default:
		g.explain.step("intent-status", "pass", ev("intent", t.intentID), ev("status", string(t.intent.Status)))
		return nil
	}
	return &d
}

func (g *Gate) notFound(id string, evidence []string) hook.Decision {
	return denial{
		code:     CodeIntentNotFound,
		headline: fmt.Sprintf("intent %s is not in .orchestration/active_intents.yaml", id),
		why:      "the selected intent does not exist; intents you can select:\n" + selectable(g.Catalog, g.Budget()/2),
		instead:  "select an existing intent with `intenthook select <ID>`, or ask the user to add this one",
		evidence: evidence,
	}.decision()
}

func invalidIntent(in *intents.Intent, evidence []string) hook.Decision {
	return denial{
		code:     CodeCatalogInvalid,
		headline: fmt.Sprintf("intent %s is invalid in .orchestration/active_intents.yaml", in.ID),
		why:      strings.Join(in.Errors(), "; "),
		instead:  "ask the user to fix the intent (intenthook intents validate), or select a valid intent",
		evidence: evidence,
	}.decision()
}

func notInProgress(in *intents.Intent, evidence []string) hook.Decision {
	d := denial{
		code:     CodeIntentNotInProgress,
		headline: fmt.Sprintf("intent %s (%s) is %s, not IN_PROGRESS", in.ID, in.Name, in.Status),
		evidence: evidence,
	}
	switch in.Status {
	case intents.Pending:
		d.why = "work on a PENDING intent has not started"
		d.instead = fmt.Sprintf("run `intenthook select %s` to start it, then retry", in.ID)
	case intents.Blocked:
		d.why = "the intent is BLOCKED until the user resolves its blocker"
		d.instead = "ask the user to resolve the blocker (intenthook intents transition " + in.ID + " IN_PROGRESS), or select another intent"
	case intents.Complete:
		d.why = "completed work is immutable"
		d.instead = "select the intent for the new work, or ask the user to create one"
	case intents.Archived:
		d.why = "archived intents are closed for good"
		d.instead = "select the intent for the new work, or ask the user to create one"
	}
	return d.decision()
}

// checkAllowedTools applies the intent's allowed_tools (step 11).
func (g *Gate) checkAllowedTools(t *target) *hook.Decision {
	if t.intent.AllowsTool(t.tool) {
		g.explain.step("allowed-tools", "pass", ev("tool", t.tool))
		return nil
	}
	d := denial{
		code:     CodeToolNotAllowed,
		headline: fmt.Sprintf("%s may not write under intent %s", t.tool, t.intent.ID),
		why:      fmt.Sprintf("%s allows only %s to write", t.intent.ID, strings.Join(t.intent.AllowedTools, ", ")),
		instead:  "make the change with one of those tools",
		evidence: g.evidence(t),
	}.decision()
	return &d
}

// checkScope needs the path inside the intent's owned_scope (step 12).
func (g *Gate) checkScope(t *target) *hook.Decision {
	if pattern, ok := t.intent.Match(t.res.Rel); ok {
		t.pattern = pattern
		g.explain.step("scope", "pass", ev("path", t.res.Rel), ev("pattern", pattern))
		return nil
	}
	d := denial{
		code:     CodeScopeViolation,
		headline: fmt.Sprintf("%s to %q is outside intent %s's owned_scope", t.tool, t.res.Rel, t.intent.ID),
		why:      fmt.Sprintf("%s (%s) owns %s", t.intent.ID, t.intent.Name, t.intent.ScopeSummary()),
		instead:  "change only files in that scope, select another intent (intenthook select <ID>), or ask the user to amend owned_scope",
		evidence: g.evidence(t),
	}.decision()
	return &d
}

// checkStale refuses to overwrite a file that changed since this session or
// agent last read or wrote it (step 13).
func (g *Gate) checkStale(t *target) *hook.Decision {
	if !g.Config.StaleCheck {
		return nil
	}
	seen, ok := g.recordedHash(t.res.Rel)
	now := t.hash()
	if !ok || seen == "" || now == "" || now == seen {
		g.explain.step("stale", "pass", ev("recorded", seen), ev("current", now))
		return nil
	}
	d := denial{
		code:     CodeStaleFile,
		headline: fmt.Sprintf("%q changed since you last read it", t.res.Rel),
		why:      "another agent or a person modified the file after your last read or write; writing now would overwrite their change",
		instead:  "re-read the file, then retry",
		evidence: append(g.evidence(t), ev("recorded", seen), ev("current", now)),
	}.decision()
	return &d
}

// checkApproval asks the human for intents that require approval and for
// delete tools (step 14).
func (g *Gate) checkApproval(t *target) *hook.Decision {
	var reason string
	switch {
	case t.intent.RequiresApproval:
		reason = fmt.Sprintf("intenthook: intent %s (%s) requires approval for every change: %s %s", t.intent.ID, t.intent.Name, t.tool, t.res.Rel)
	case t.delete:
		reason = fmt.Sprintf("intenthook: %s deletes %s under intent %s", t.tool, t.res.Rel, t.intent.ID)
	default:
		g.explain.step("approval", "pass")
		return nil
	}
	t.scope = "PASS"
	return &hook.Decision{Verdict: hook.Ask, Message: reason}
}
