package gate

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/intenthook/intenthook/internal/backstop"
	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/judge"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/selection"
	"github.com/intenthook/intenthook/internal/workspace"
)

// checkPath resolves the target (step 6): inside the root it goes on; under a
// temporary directory it is allowed without a record; elsewhere it is denied.
func (g *Gate) checkPath(t *target) *hook.Decision {
	t.res = g.resolver.Resolve(t.given)
	if t.res.Place != workspace.Inside {
		if d, ok := userWiring(g.call, t); ok {
			g.explain.step("resolve-path", "deny", hook.Ev("path", t.res.Abs), "(the agent's own hooks file)")
			return &d
		}
	}
	if d, ok := modsDir(g.call, t); ok {
		g.explain.step("resolve-path", "deny", hook.Ev("path", t.res.Abs), "(a folder an agent loads code from)")
		return &d
	}
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

// userWiring denies a target outside the workspace that is the calling
// agent's hooks file in the user's home, or a directory that holds it,
// when that file is the agent's only wiring: whatever outside_workspace
// says, the agent does not rewrite what runs intenthook for it.
func userWiring(call *hook.Call, t *target) (hook.Decision, bool) {
	if call.UserWiring == "" || t.res.Abs == "" {
		return hook.Decision{}, false
	}
	wiring := filepath.Clean(call.UserWiring)
	if real, err := filepath.EvalSymlinks(wiring); err == nil {
		wiring = real
	}
	abs := filepath.Clean(t.res.Abs)
	if abs != wiring && !strings.HasPrefix(wiring, abs+string(filepath.Separator)) {
		return hook.Decision{}, false
	}
	return hook.Denial{
		Code:     hook.CodeProtectedPath,
		Headline: fmt.Sprintf("%s to %q is for the user, not for agents", t.tool, t.res.Abs),
		Why:      "it holds (or is) the hooks file that runs intenthook for this agent, in the user's home",
		Instead:  "ask the user to change it from their own terminal",
		Evidence: []string{hook.Ev("path", t.given), hook.Ev("wiring", filepath.ToSlash(call.UserWiring)), hook.Ev("session", call.SessionID)},
	}.Decision(), true
}

// modsDir denies a target that lies under a folder
// from which an agent loads code into its own process (Claude Code's
// dev-mods), or is a directory that holds one: such code sees each tool call
// before the hooks and can answer or rewrite it, so no governed agent may
// plant it, whatever outside_workspace or an intent's scope says (a home
// directory can be a workspace). A target is compared by its path, and,
// outside the workspace and temp only, with the folder's links resolved.
func modsDir(call *hook.Call, t *target) (hook.Decision, bool) {
	if t.res.Abs == "" {
		return hook.Decision{}, false
	}
	abs := filepath.Clean(t.res.Abs)
	for _, dir := range call.ModsDirs {
		dir = filepath.Clean(dir)
		// A directory that holds the folder is refused outside the
		// workspace only: inside, the workspace's own root (a home that is
		// a workspace) stays the scope's to judge.
		holds := t.res.Place != workspace.Inside && within(dir, abs)
		if !within(abs, dir) && !holds {
			// A configuration home that is a link (dotfiles) is compared
			// as it resolves, for a target outside the workspace and temp
			// only: the common cases pay no system call.
			if t.res.Place != workspace.Outside {
				continue
			}
			if real, err := filepath.EvalSymlinks(dir); err != nil || (!within(abs, real) && !within(real, abs)) {
				continue
			}
		}
		return hook.Denial{
			Code:     hook.CodeProtectedPath,
			Headline: fmt.Sprintf("%s to %q is for the user, not for agents", t.tool, t.res.Abs),
			Why:      "it is (or holds) " + dir + ", where Claude Code loads mods: code in its own process that sees each tool call before the hooks",
			Instead:  "ask the user to write the mod from their own terminal",
			Evidence: []string{hook.Ev("path", t.given), hook.Ev("mods", filepath.ToSlash(dir)), hook.Ev("session", call.SessionID)},
		}.Decision(), true
	}
	return hook.Decision{}, false
}

// within reports whether p is dir or lies under it, with case folded where
// the usual file system ignores case (macOS, Windows): ~/.Claude/Dev-Mods
// is the same folder there.
func within(p, dir string) bool {
	return withinFold(p, dir, runtime.GOOS == "darwin" || runtime.GOOS == "windows")
}

func withinFold(p, dir string, fold bool) bool {
	if fold {
		p, dir = strings.ToLower(p), strings.ToLower(dir)
	}
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
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

// checkRules is the rules' part of the chain (steps 7–15): judge.Judge
// decides, as it does for a replay; the gate turns its verdict into the
// deny an agent reads, and notes each step for --explain.
func (g *Gate) checkRules(t *target) *hook.Decision {
	t.intentID, t.from = g.activeIntent()
	put, reverting := g.reverting[t.res.Rel]
	rules := g.rules()
	rules.Alias = func(string) (string, bool) { return g.Protected.Alias(g.Root, t.res.Abs) }
	v := judge.Judge(rules, judge.Write{
		Path:   t.res.Rel,
		Dir:    t.dir || t.shell && isDir(t.res.Abs),
		Tool:   t.tool,
		Delete: t.delete || t.removes,
		Role:   roleRules{g}.name(),
		Intent: t.intentID,
		Revert: reverting && (put == backstop.PutRemove) == t.removes,
	})
	t.intent = v.Intent
	g.explainPasses(t, v)
	switch v.Step {
	case judge.StepIgnored:
		t.scope = ledger.ScopeIgnored
		g.explain.step(v.Step, "allow", hook.Ev("path", t.res.Rel), "(listed in .intentignore or .orchestration/.intentignore)")
		return allowStop
	case judge.StepRevert:
		t.scope = scopeRevert
		g.explain.step(v.Step, "allow", hook.Ev("path", t.res.Rel), hook.Ev("put", put))
		return allowStop
	case "":
		t.pattern = v.Match
		g.explain.step(judge.StepScope, "pass", hook.Ev("path", t.res.Rel), hook.Ev("pattern", v.Match))
		return nil
	}
	d := g.denyRules(t, v)
	g.explain.step(v.Step, d.Verdict.String(), "code="+d.Code)
	return &d
}

// rules are the workspace's rules as judge.Judge takes them (without the
// hard-link look, which is per target).
func (g *Gate) rules() *judge.Rules {
	return &judge.Rules{Catalog: g.Catalog, Protected: g.Protected, Ignore: g.Ignore, Roles: g.Config.Roles}
}

// explainPasses notes, for --explain, the steps the verdict went through
// before the one that decided.
func (g *Gate) explainPasses(t *target, v judge.Verdict) {
	if g.explain == nil || g.explain.w == nil {
		return
	}
	for _, s := range judge.Steps {
		if s == v.Step || (v.Step == "" && s == judge.StepScope) {
			return
		}
		switch s {
		case judge.StepRole:
			if name, _, ok := (roleRules{g}).role(); ok {
				g.explain.step("role", "pass", hook.Ev("role", name), hook.Ev("class", v.RoleClass))
			}
		case judge.StepRevert, judge.StepRoleIntent:
		case judge.StepIntent:
			g.explain.step(s, "pass", hook.Ev("intent", t.intentID), hook.Ev("from", t.from))
		case judge.StepStatus:
			g.explain.step(s, "pass", hook.Ev("intent", t.intentID), hook.Ev("status", string(t.intent.Status)))
		case judge.StepTools:
			g.explain.step(s, "pass", hook.Ev("tool", t.tool))
		default:
			g.explain.step(s, "pass")
		}
	}
}

// denyRules is the deny of the rules' verdict v for t.
func (g *Gate) denyRules(t *target, v judge.Verdict) hook.Decision {
	switch v.Step {
	case judge.StepRole:
		return roleRules{g}.denyTarget(t, v.RoleClass)
	case judge.StepProtected:
		return denyProtected(t, v, g.evidence(t))
	case judge.StepIntent:
		return denyNoIntent(t, g.Catalog, g.Budget(), g.evidence(t))
	case judge.StepStatus:
		return denyStatus(t, v.Code, g.Catalog, g.Budget(), g.evidence(t))
	case judge.StepRoleIntent:
		return *g.roleIntent(t.intentID)
	case judge.StepTools:
		return denyTool(t, g.evidence(t))
	}
	mcp := g.env.MCPWired != nil && g.env.MCPWired(g.Root)
	return denyScope(t, widerScope(mcp, t.intent.ID), g.evidence(t))
}

// denyProtected denies a write to a governance file, even in scope.
func denyProtected(t *target, v judge.Verdict, evidence []string) hook.Decision {
	why := fmt.Sprintf("%s is governance state (matches %s); agents may not change it", t.res.Rel, v.Match)
	switch {
	case v.Nested:
		why = t.res.Rel + " is inside a nested .orchestration/ directory; a governance directory below the root would let a subtree govern itself"
	case v.Alias:
		why = fmt.Sprintf("%s is a hard link to %s, which is governance state", t.res.Rel, v.Match)
	}
	return hook.Denial{
		Code:     hook.CodeProtectedPath,
		Headline: fmt.Sprintf("%s to %q: the file is protected", t.tool, t.res.Rel),
		Why:      why,
		Instead:  "leave governance files to the user; ask the user to make this change",
		Evidence: evidence,
	}.Decision()
}

// checkIntentSelected needs an active intent for the session or agent: a
// destructive shell command's, and a write whose target is unknown.
func (g *Gate) checkIntentSelected(t *target) *hook.Decision {
	t.intentID, t.from = g.activeIntent()
	if t.intentID != "" {
		g.explain.step("intent-selected", "pass", hook.Ev("intent", t.intentID), hook.Ev("from", t.from))
		return nil
	}
	d := denyNoIntent(t, g.Catalog, g.Budget(), g.evidence(t))
	return &d
}

// denyNoIntent denies a change no intent is selected for, listing the
// catalog's selectable intents within half the text budget.
func denyNoIntent(t *target, cat *intents.Catalog, budget int, evidence []string) hook.Decision {
	return hook.Denial{
		Code:     hook.CodeIntentRequired,
		Headline: fmt.Sprintf("%s needs an active intent, and this session has none", subject(t)),
		Why:      "every change must be traceable to a declared intent; intents you can select:\n" + selection.Selectable(cat, budget/2),
		Instead:  "select the intent this work belongs to by running the shell command `intenthook select <ID>`, then retry",
		Evidence: evidence,
	}.Decision()
}

// checkIntentStatus needs the intent to exist, be valid and be IN_PROGRESS
// (judge.Status): a destructive shell command's intent.
func (g *Gate) checkIntentStatus(t *target) *hook.Decision {
	var code string
	if t.intent, code = judge.Status(g.Catalog, t.intentID, ""); code == "" {
		g.explain.step("intent-status", "pass", hook.Ev("intent", t.intentID), hook.Ev("status", string(t.intent.Status)))
		return nil
	}
	d := denyStatus(t, code, g.Catalog, g.Budget(), g.evidence(t))
	return &d
}

// denyStatus denies a change under an intent that is missing, invalid or
// not in progress (code, judge.Status's).
func denyStatus(t *target, code string, cat *intents.Catalog, budget int, evidence []string) hook.Decision {
	switch code {
	case hook.CodeIntentNotFound:
		return selection.NotFound(cat, t.intentID, budget, evidence)
	case hook.CodeCatalogInvalid:
		return selection.Invalid(t.intent, evidence)
	}
	return selection.NotInProgress(t.intent, evidence)
}

// denyTool denies a tool the intent's allowed_tools leaves out.
func denyTool(t *target, evidence []string) hook.Decision {
	return hook.Denial{
		Code:     hook.CodeToolNotAllowed,
		Headline: fmt.Sprintf("%s may not write under intent %s", t.tool, t.intent.ID),
		Why:      fmt.Sprintf("%s allows only %s to write", t.intent.ID, strings.Join(t.intent.AllowedTools, ", ")),
		Instead:  "make the change with one of those tools",
		Evidence: evidence,
	}.Decision()
}

// denyScope denies a path outside the intent's owned_scope, saying how to
// ask for a wider one.
func denyScope(t *target, wider string, evidence []string) hook.Decision {
	return hook.Denial{
		Code:     hook.CodeScopeViolation,
		Headline: fmt.Sprintf("%s to %q is outside intent %s's owned_scope", t.tool, t.res.Rel, t.intent.ID),
		Why:      fmt.Sprintf("%s (%s) owns %s", t.intent.ID, t.intent.Name, t.intent.ScopeSummary()),
		Instead:  "change only files in that scope, select another intent (intenthook select <ID>), or " + wider,
		Evidence: evidence,
	}.Decision()
}

// widerScope says how to ask for a wider scope of intent id: through
// intenthook's MCP server where it is registered for the calling agent
// (mcp), else through a person.
func widerScope(mcp bool, id string) string {
	if mcp {
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
	var code, headline, why string
	switch {
	case t.intent.RequiresApproval:
		code = CodeAskRequiresApproval
		headline = fmt.Sprintf("intent %s (%s) requires approval for every change: %s %s", t.intent.ID, t.intent.Name, t.tool, t.res.Rel)
		why = "the intent says requires_approval: true"
	case t.delete:
		code = CodeAskDelete
		headline = fmt.Sprintf("%s deletes %s under intent %s", t.tool, t.res.Rel, t.intent.ID)
		why = "deleting a file with a delete tool is asked about"
	case g.call.Class == hook.ClassWrite && workspace.HardLinked(t.res.Abs):
		code = CodeAskLinkedFile
		headline = fmt.Sprintf("%s writes %s, a file with more than one name (hard links): the change shows under the other names too", t.tool, t.res.Rel)
		why = "its other names may lie outside the intent's scope, or outside the workspace"
	default:
		g.explain.step("approval", "pass")
		return nil
	}
	t.scope = "PASS"
	d := ask(code, headline, why, g.evidence(t))
	return &d
}

// isDir reports whether path is a directory (not through a final link):
// a shell command's target that is one is matched as a directory.
func isDir(path string) bool {
	st, err := os.Lstat(path)
	return err == nil && st.IsDir()
}
