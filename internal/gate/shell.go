package gate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/backstop"
	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/full"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/shell"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/workspace"
)

// preShell is step 4: a shell command's write and delete targets go through
// the same chain as a Write; destructive and opaque commands answer per the
// shell settings; everything else passes silently.
func (g *Gate) preShell(ctx context.Context) (hook.Decision, error) {
	a := g.analyse()
	g.activations(&a)
	g.explain.step("shell", "parsed", fmt.Sprintf("writes=%v deletes=%v destructive=%v opaque=%v", a.Writes, a.Deletes, a.Destructive, a.Opaque))
	if d, ok := g.identifySelf(&a); ok {
		return d, nil
	}
	if id := a.SelectID(); id != "" {
		d, err := g.selectIntent(ctx, id)
		g.watchRunner(ctx, a, d, err)
		return d, err
	}
	if id, agentType := a.Delegation(); id != "" {
		d, err := delegations{g}.delegate(ctx, id, agentType)
		g.watchRunner(ctx, a, d, err)
		return d, err
	}
	if id := a.SubmitID(); id != "" {
		// The submission runs the intent's checks, which may change files:
		// the backstop and the guard watch the call like any other command.
		d, err := g.submit(ctx, id)
		if err == nil && d.Verdict != hook.Deny {
			g.watchCommand(ctx)
		}
		return d, err
	}
	if d, ok := g.checkSelfCalls(a); ok {
		return d, nil
	}
	if d, ok := g.checkLinkSources(a.LinkSources); ok {
		return d, nil
	}
	if d, ok := g.checkAtHome(a.AtHome); ok {
		return d, nil
	}
	if d, ok := g.checkGovernanceDirs(a.Deletes); ok {
		return d, nil
	}
	if !a.ReadOnly {
		if d := g.closedWithoutState(); d != nil {
			return *d, nil
		}
		if d := (budgets{g}).check(); d != nil && !selfReadOnly(a) {
			return *d, nil
		}
	}
	// The guard's picture first: no git process may run before it (a
	// filter or a hook git runs could change the rules inside the hook).
	// A command that records agent text (an anchor, a lesson) is watched
	// like a write: the guard attributes what it appends to this session.
	g.pictures(ctx, a.ReadOnly, a.ReadOnly && !writesNotes(a), g.reachesHome(a))
	g.reverting = g.revertable(a)
	var targets []*target
	for _, w := range a.Writes {
		t := g.newTarget(w, g.call.ToolName, false)
		t.shell, t.dir = true, slices.Contains(a.Dirs, w)
		targets = append(targets, t)
	}
	for _, p := range a.Deletes {
		t := g.newTarget(p, g.call.ToolName, false)
		t.shell, t.removes = true, true
		targets = append(targets, t)
	}
	d, pass, err := g.decideTargets(targets)
	if err != nil || d.Verdict == hook.Deny {
		return d, err
	}
	if len(a.Destructive) > 0 {
		if dd := g.destructive(a.Destructive); dd.Stricter(d) {
			d = dd
		}
	}
	if len(a.Opaque) > 0 && d.Verdict != hook.Deny {
		if od := g.shellSetting(g.Config.Shell.Opaque, "cannot be analysed: "+strings.Join(a.Opaque, "; ")); od.Stricter(d) {
			d = od
		}
	}
	if d.Verdict == hook.Deny {
		return d, nil
	}
	if g.call.Unsandboxed && !a.ReadOnly {
		if ud := g.unsandboxed(); ud.Stricter(d) {
			d = ud
		}
	}
	// The decision stands even when its pre-hashes cannot be stored (a
	// held lock, a broken state/): post then records without them. A
	// command the backstop or the guard must judge afterwards does not run
	// without their pictures.
	if err := g.storePending(ctx, pass, d.Verdict == hook.Ask); err != nil {
		if g.pending != nil && (g.pending.Backstop != nil || g.pending.Guard != nil) {
			return g.stateBusy("the picture taken before this command cannot be stored", err), nil
		}
		g.note(err)
	}
	return d, nil
}

// watchCommand leaves the backstop's and the guard's pictures for the
// PostToolUse of a command the gate let through without targets of its own.
func (g *Gate) watchCommand(ctx context.Context) {
	g.pictures(ctx, false, false, true)
	g.note(g.storePending(ctx, nil, false))
}

// pictures takes the guard's picture of the rules (unless guardReadOnly;
// with the mods folders when home says the command could write there) and
// then the backstop's of the work tree (unless readOnly) for the call's
// post: the guard's first, since no git process may run before it. HEAD's
// history (the reflog's size, the branches' tips) is read once: the guard
// keeps the backstop's.
func (g *Gate) pictures(ctx context.Context, readOnly, guardReadOnly, home bool) {
	gs := g.guardSnapshot(guardReadOnly, home)
	g.pending = g.snapshot(ctx, readOnly)
	if gs == nil {
		return
	}
	if g.pending == nil {
		g.pending = &state.Pending{}
	}
	if p := g.pending.Backstop; p != nil {
		gs.Reflog, gs.Tips, gs.TipsKnown = p.Reflog, p.Tips, p.TipsKnown
	} else {
		gs.Reflog = git.ReflogSize(g.Root)
		_, gs.Tips, gs.TipsKnown = git.BranchTips(g.Root)
	}
	g.pending.Guard = gs
}

func (g *Gate) analyse() shell.Analysis {
	if g.call.ToolName == "PowerShell" {
		return shell.Analysis{Opaque: []string{"PowerShell commands are not parsed"}}
	}
	cwd := g.cwd()
	isDir := func(p string) bool {
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		st, err := os.Stat(p)
		return err == nil && st.IsDir()
	}
	return shell.AnalyseIn(g.call.Command, shell.Env{IsDir: isDir, Home: g.env.home()})
}

// cwd is the directory the call runs in.
func (g *Gate) cwd() string {
	if g.call.Cwd != "" {
		return g.call.Cwd
	}
	return g.env.Wd
}

// reachesHome reports whether a command could write under the user's
// home, where the guard then watches the folders an agent loads code from
// (Claude Code's dev-mods): it runs a program whose writes the analysis
// does not list, something in it is opaque, or a target it names lies
// outside the workspace. A command of file utilities writing in the
// workspace (mkdir, cp, sed -i, a redirection) pays nothing for them.
func (g *Gate) reachesHome(a shell.Analysis) bool {
	if len(g.call.ModsDirs) == 0 || a.ReadOnly {
		return false
	}
	if a.Unlisted || len(a.Opaque) > 0 || len(a.AtHome) > 0 {
		return true
	}
	for _, list := range [][]string{a.Writes, a.LinkSources} {
		for _, p := range list {
			if g.resolver.Resolve(p).Place != workspace.Inside {
				return true
			}
		}
	}
	return false
}

// checkAtHome refuses a write target spelt ~/… or $HOME/… that lands, with
// the hook's home, where Claude Code loads mods: the command may set HOME
// first, so such a target is otherwise only asked about (opaque), but no
// answer may let an agent plant one there.
func (g *Gate) checkAtHome(paths []string) (hook.Decision, bool) {
	for _, p := range paths {
		t := &target{tool: g.call.ToolName, given: p, shell: true, res: g.resolver.Resolve(p)}
		if d, ok := modsDir(g.call, t); ok {
			g.explain.step("resolve-path", "deny", hook.Ev("path", p), "(a folder an agent loads code from, spelt from the home)")
			return d, true
		}
	}
	return hook.Decision{}, false
}

// checkLinkSources refuses hard links to protected files: a second name
// for the catalog or the ledger would make it writable under a name no
// protected glob covers.
func (g *Gate) checkLinkSources(sources []string) (hook.Decision, bool) {
	for _, src := range sources {
		t := g.newTarget(src, g.call.ToolName, false)
		if d := g.checkPath(t); d != nil {
			if d.Verdict == hook.Deny {
				g.denied = t
				return *d, true
			}
			continue
		}
		_, protected := g.Protected.Match(t.res.Rel)
		if st, err := os.Stat(t.res.Abs); err == nil && st.IsDir() && !protected {
			protected = g.Protected.Within(t.res.Rel, t.res.Abs)
		}
		if protected || workspace.Nested(t.res.Rel) {
			g.denied = t
			return hook.Denial{
				Code:     hook.CodeProtectedPath,
				Headline: fmt.Sprintf("%s links to %q: it is, or holds, a protected file", t.tool, t.res.Rel),
				Why:      "a hard link is a second name for a governance file; agents may not change those under any name",
				Instead:  "leave governance files to the user; ask the user to make this change",
				Evidence: g.evidence(t),
			}.Decision(), true
		}
	}
	return hook.Decision{}, false
}

// checkSelfCalls sorts the agent's calls of intenthook itself (SPEC §8):
// select alone is a selection, read-only commands pass, the rest are the
// human's levers.
func (g *Gate) checkSelfCalls(a shell.Analysis) (hook.Decision, bool) {
	evidence := []string{hook.Ev("command", safetext.OneLine(g.call.Command)), hook.Ev("session", g.call.SessionID)}
	calls := a.Self
	for _, c := range a.ByPath {
		// A program run by a path may be intenthook under another name:
		// a link to, or a copy of, an installed binary.
		p := c.Program
		if !filepath.IsAbs(p) {
			p = filepath.Join(g.cwd(), p)
		}
		if full.IsInstalled(p) {
			g.explain.step("shell", "self", hook.Ev("program", c.Program)+" is intenthook")
			evidence = append(evidence, hook.Ev("program", c.Program))
			c.Program = ""
			calls = append(calls, c)
		}
	}
	for _, c := range calls {
		switch c.Kind {
		case shell.SelfSelect, shell.SelfDelegate:
			return hook.Denial{
				Code:     hook.CodeShellUnsafe,
				Headline: "intenthook select inside a compound command",
				Why:      "the hook can only perform a selection that is the whole command",
				Instead:  "run intenthook select alone: `intenthook select <ID>`, then run the rest",
				Evidence: evidence,
			}.Decision(), true
		case shell.SelfSubmit:
			return hook.Denial{
				Code:     hook.CodeShellUnsafe,
				Headline: "intenthook submit inside a compound command",
				Why:      "the hook can only vouch for a submission that is the whole command",
				Instead:  "run intenthook submit alone: `intenthook submit <ID>`",
				Evidence: evidence,
			}.Decision(), true
		case shell.SelfLever:
			what := strings.Join(append([]string{"intenthook"}, c.Args...), " ")
			if c.Program != "" && !strings.HasPrefix(c.Program, "intenthook-full") {
				what = strings.Join(append([]string{c.Program}, c.Args...), " ")
			}
			return hook.Denial{
				Code:     hook.CodeProtectedPath,
				Headline: what + " is for the user, not for agents",
				Why:      "changing intents, scopes, selections for others, set-up and commit checks are the user's levers",
				Instead:  "ask the user to run it; you may run intenthook select <ID>, submit <ID>, intents list|show|tree|validate, status, ledger query|verify, blame, lesson and anchor",
				Evidence: evidence,
			}.Decision(), true
		}
	}
	return hook.Decision{}, false
}

// destructive needs an active in-progress intent, then answers per
// shell.destructive (default ask).
func (g *Gate) destructive(reasons []string) hook.Decision {
	t := &target{given: g.call.Command, tool: g.call.ToolName}
	if d := g.checkIntentSelected(t); d != nil {
		return *d
	}
	if d := g.checkIntentStatus(t); d != nil {
		return *d
	}
	return g.shellSetting(g.Config.Shell.Destructive, "destructive command: "+strings.Join(reasons, "; "))
}

func (g *Gate) shellSetting(setting, why string) hook.Decision {
	switch setting {
	case config.Allow:
		g.explain.step("shell", "allow", why)
		return hook.Decision{}
	case config.Deny:
		g.explain.step("shell", "deny", why)
		return hook.Denial{
			Code:     hook.CodeShellUnsafe,
			Headline: "the command is not allowed: " + why,
			Why:      "the workspace settings deny such shell commands",
			Instead:  "use the Write and Edit tools for file changes, or ask the user to run the command",
			Evidence: []string{hook.Ev("command", safetext.OneLine(g.call.Command)), hook.Ev("session", g.call.SessionID)},
		}.Decision()
	}
	g.explain.step("shell", "ask", why)
	return ask(CodeAskDestructive, why, "the workspace settings ask a person about such shell commands (shell.destructive, shell.opaque)",
		[]string{hook.Ev("command", safetext.OneLine(g.call.Command)), hook.Ev("session", g.call.SessionID)})
}

// unsandboxed asks a person about a command that may write and that the
// model asked to run outside the agent's OS sandbox: the sandbox is what
// keeps an unmodelled program's writes off the rules and outside the
// workspace, and with the agent's auto-allow such a command would run
// unprompted.
func (g *Gate) unsandboxed() hook.Decision {
	const why = "the command asks to run outside the sandbox (dangerouslyDisableSandbox)"
	g.explain.step("shell", "ask", why)
	return ask(CodeAskUnsandboxed, why, "the OS sandbox keeps programs the hooks cannot model from writing the rules or outside the workspace; a person decides whether this command may leave it",
		[]string{hook.Ev("command", safetext.OneLine(g.call.Command)), hook.Ev("session", g.call.SessionID)})
}

// What an ask is about (hook.Decision's AskCode): a person's standing
// answer (intenthook ask allow --session S --code C --for D) names one.
const (
	CodeAskDestructive      = "destructive_command" // shell.destructive or shell.opaque: ask
	CodeAskUnsandboxed      = "unsandboxed_command" // a command that asks to leave the OS sandbox
	CodeAskPackageSource    = "package_source"      // a package from a path, a tarball, a git URL, or named at run time
	CodeAskRequiresApproval = "requires_approval"   // a write under an intent with requires_approval: true
	CodeAskDelete           = "delete_file"         // a delete tool's call
	CodeAskLinkedFile       = "linked_file"         // a write to a file with more than one name
)

// AskCodes lists what a person may answer ahead (ask allow --code).
func AskCodes() []string {
	return []string{CodeAskDestructive, CodeAskUnsandboxed, CodeAskPackageSource, CodeAskRequiresApproval, CodeAskDelete, CodeAskLinkedFile, CodeAskHost}
}

// ask is an ask whose reason carries the same labelled lines as a deny:
// in headless runs (claude -p) an ask becomes a denial, and the model then
// reads only this reason, so it must say what to do. code says what it is
// about.
func ask(code, headline, why string, evidence []string) hook.Decision {
	var b strings.Builder
	b.WriteString("intenthook: " + safetext.OneLine(headline))
	b.WriteString("\nwhy: " + why)
	b.WriteString("\ninstead: this needs the user's approval; where no one can approve it (a headless run), stop and ask the user, or make the change another way that needs none")
	if len(evidence) > 0 {
		b.WriteString("\nevidence: " + strings.Join(evidence, " "))
	}
	return hook.Decision{Verdict: hook.Ask, AskCode: code, Message: b.String()}
}

// writesNotes reports whether the command calls intenthook anchor or
// lesson: agent text that must be attributed to the session.
func writesNotes(a shell.Analysis) bool {
	for _, c := range a.Self {
		args := c.Args
		for len(args) > 0 && (args[0] == "--root" || strings.HasPrefix(args[0], "--root=")) {
			if args[0] == "--root" && len(args) > 1 {
				args = args[1:]
			}
			args = args[1:]
		}
		if len(args) > 0 && (args[0] == "anchor" || args[0] == "lesson") {
			return true
		}
	}
	return false
}

// scopeRevert marks, in a call's pending state, a target allowed as a
// revert (checkRevert); post records it as ledger.Revert, scope EXEMPT.
const scopeRevert = "REVERT"

// revertable returns the files of a command that only puts files back
// (shell.Reverts) which the session's last violation named, put back the
// way it said; nil for any other command.
func (g *Gate) revertable(a shell.Analysis) map[string]string {
	if len(g.session.Reverts) == 0 || !a.Simple {
		return nil
	}
	r, ok := shell.Reverts(g.call.Command)
	if !ok {
		return nil
	}
	out := map[string]string{}
	add := func(files []string, put string) {
		for _, f := range files {
			res := g.resolver.Resolve(f)
			if res.Place == workspace.Inside && g.session.Reverts[res.Rel] == put {
				out[res.Rel] = put
			}
		}
	}
	add(r.Checkout, backstop.PutCheckout)
	add(r.Remove, backstop.PutRemove)
	return out
}
