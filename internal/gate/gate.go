// Package gate holds intenthook's hook pipelines: PreToolUse, the decision
// chain (docs/spec.md) as a list of small named steps, PostToolUse and its
// records, the selection of intents, and the context hooks (SessionStart,
// UserPromptSubmit, SubagentStart, Stop, SessionEnd). Each step decides from
// a snapshot of the workspace (catalog, settings, session state); loading
// the snapshot and writing state happen at the edges. What a shell command
// changed is judged below it, by the backstop (scope) and the guard (the
// rules), each behind a small Call the gate answers; features of their own
// (plugins, roles, delegations, session ends) are types over the Gate. The
// gate knows no agent's wire format: it takes a hook.Call and answers a
// hook.Decision.
package gate

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/shell"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/workspace"
)

// Env is what a pipeline takes from its process: flags, environment, clock.
type Env struct {
	Root   string // --root
	Getenv func(string) string
	Wd     string
	Now    func() time.Time
	// Sleep is the clock's sleep, for a hook that waits on a person's
	// answer (ask.via: wait); nil is time.Sleep.
	Sleep   func(time.Duration)
	Explain io.Writer // non-nil with --explain
	Version string    // stamped on ledger records
	// Hook is set for the hook commands: only they look for the root in
	// the agent's project directory variable too (SPEC §1); commands
	// people run walk up from --root or the working directory.
	Hook bool
	// ProjectDirVars name the variables the calling agent sets to its
	// project directory ($CLAUDE_PROJECT_DIR for Claude Code).
	ProjectDirVars []string
	// AgentRows are every agent's rows of the governance table
	// (agent.Governance), which the runner gives: protection and the guard
	// need them all, whichever agent is on the line (a session of one agent
	// may write no other's wiring). Without them only intenthook's and
	// git's rows apply.
	AgentRows []governed.Table
	// RootRows, when set, gives rows that depend on the workspace found
	// (its own agents' descriptions, each watched whole); they join
	// AgentRows.
	RootRows func(root string) governed.Table
	// MCPWired reports whether intenthook's MCP server is registered for
	// the calling agent in the workspace at root (nil: it is not); asked
	// only to word a deny.
	MCPWired func(root string) bool
}

func (e *Env) now() time.Time {
	if e.Now == nil {
		return time.Now()
	}
	return e.Now()
}

// getenv is Getenv, or the process's environment.
func (e *Env) getenv(key string) string {
	if e.Getenv == nil {
		return os.Getenv(key)
	}
	return e.Getenv(key)
}

// home is the user's home directory, where a link spelt ~/… points.
func (e *Env) home() string {
	return cmp.Or(e.getenv("HOME"), e.getenv("USERPROFILE"))
}

// projectDir is the first of the calling agent's project directory
// variables that is set, "" when none is.
func (e *Env) projectDir() string {
	for _, v := range e.ProjectDirVars {
		if dir := e.getenv(v); dir != "" {
			return dir
		}
	}
	return ""
}

// Gate is one hook call's view of its workspace: the call, the session it
// belongs to, and the pipelines over them. Everything the workspace holds
// for every command (root, settings, catalog, state) is the embedded
// Workspace's.
type Gate struct {
	*workspace.Workspace
	env      *Env
	call     *hook.Call
	resolver *workspace.Resolver
	session  *state.Session
	explain  *explainer
	notes    []string       // non-fatal warnings for stderr
	pending  *state.Pending // what a shell call leaves for post beyond its targets
	denied   *target        // the target a deny names, for its ledger record
	// reverting holds the files a shell command that only puts files back
	// names which the session's last violation allows it to (rel -> how).
	reverting map[string]string
	// seen, when set, answers recordedHash without the session log (tests).
	seen map[string]string
	// learned is the model read from the transcript's tail, once per call,
	// for sessions whose events do not name it ("" when none was found).
	learned *string
	// usageAdded: the call's usage is on a record already (addUsage).
	usageAdded bool
	// budgetNotes are what post tells the session when this call brought
	// an intent or the session (budgetNoted) near its budget
	// (budgets.count).
	budgetNotes, budgetNoted []string
	// stateErr is why the session's state could not be read, if it could
	// not: the call is then decided as a fresh session's.
	stateErr error
	// rescued are the rules a post put back before it could load them.
	rescued []guard.Change
	// cleanEnv is the environment of the call's git processes.
	cleanEnv []string
}

// Open finds the call's governed root and loads its workspace. It returns a
// nil Gate (and no error) when the call is ungoverned. A Gate with a non-nil
// Config is returned alongside load errors so that the fail mode is known.
func Open(env *Env, call *hook.Call) (*Gate, error) {
	getenv := env.getenv
	explain := newExplainer(env.Explain)
	projectDir := ""
	if env.Hook {
		projectDir = env.projectDir()
	}
	root := workspace.HookRoot(env.Root, projectDir, call.Cwd, env.Wd)
	if call.ProjectFromEvent && env.Root == "" {
		// The agent runs its hooks from its own home: only the project its
		// event names places the call (ProjectUnknown judges the rest).
		root = workspace.HookRoot("", EventProject(call), "", "")
	}
	if root == "" && call.AfterTool() {
		// A command that took the catalog away (removed it, or put a pipe
		// in its place) is judged like one that left it unreadable: the
		// workspace is the one whose state holds this call's picture.
		root = pictured(workspace.StateRoot(env.Root, projectDir, call.Cwd, env.Wd), call)
	}
	if root == "" && env.Hook && env.Root == "" && projectDir == "" && !call.ProjectFromEvent {
		// Nothing anchors the call (no --root, no project directory
		// variable, and the session's cwd moved out of the governed tree):
		// a write into one is judged by its rules all the same. A project
		// directory that names an ungoverned tree stays final, and so does
		// an agent's event that places its calls (a call it cannot place
		// is ProjectUnknown's).
		root = workspace.TargetRoot(unanchoredTargets(call), cmp.Or(call.Cwd, env.Wd))
	}
	if root == "" {
		explain.step("governance", "off", "no .orchestration/active_intents.yaml above the project dir, cwd or working directory")
		explain.flush()
		return nil, nil
	}
	rows := env.AgentRows
	if env.RootRows != nil {
		if extra := env.RootRows(root); len(extra) > 0 {
			rows = append(rows[:len(rows):len(rows)], extra)
		}
	}
	ws, err := workspace.Load(root, workspace.Governance(rows), getenv, env.now)
	g := &Gate{Workspace: ws, env: env, call: call, explain: explain}
	if err != nil && call.AfterTool() {
		// A command that left the rules unreadable is judged by the rules
		// it started under: they are put back first.
		if ws, err = g.rescueRules(root, getenv); err == nil {
			g.Workspace = ws
		}
	}
	if err != nil {
		return g, err
	}
	// What this call's hooks write to its session's state is journaled
	// under the call, for the guard of a command running meanwhile.
	ws.Sessions.By = guard.By(call.SessionID, call.ToolUseID)
	g.explain.step("governance", "on", "root="+root)
	for _, w := range ws.Warnings {
		g.note(w)
	}
	cwd := call.Cwd
	if cwd == "" {
		cwd = env.Wd
	}
	g.resolver = ws.Resolver(cwd)
	// Decide first, store second: session state that cannot be read (a
	// state/ someone replaced with a file) must not turn this call's
	// decision into a skipped one. The call is decided as a fresh session.
	if g.session, err = g.Sessions.Read(call.SessionID); err != nil {
		g.note(err)
		g.stateErr = err
		g.session = &state.Session{ID: call.SessionID}
	}
	return g, nil
}

// unanchoredTargets are the files a call nothing anchors may change, which
// name its root: a write's or delete's paths, or what a shell command
// writes, makes or deletes by the analysis (what it does that the analysis
// cannot see names none: precommit and audit find it).
func unanchoredTargets(call *hook.Call) []string {
	switch call.Class {
	case hook.ClassWrite, hook.ClassDelete:
		return call.Paths
	case hook.ClassShell:
		if call.Command == "" {
			return nil
		}
		a := shell.Analyse(call.Command, nil)
		return slices.Concat(a.Writes, a.Dirs, a.Deletes)
	}
	return nil
}

// activeIntent returns the intent id in force for the call's session and
// agent, and where it came from.
func (g *Gate) activeIntent() (id, from string) {
	if g.call.AgentID != "" {
		if id := g.session.AgentIntents[g.call.AgentID]; id != "" {
			return id, "agent " + g.call.AgentID
		}
	}
	if g.session.Intent != "" {
		return g.session.Intent, "session"
	}
	if id := g.Default(); id != "" {
		return id, "workspace default"
	}
	return "", ""
}

// recordedHash returns the digest the call's session and agent last saw
// for rel, on a read or its own write.
func (g *Gate) recordedHash(rel string) (string, bool) {
	if g.seen != nil {
		h, ok := g.seen[rel]
		return h, ok
	}
	return g.Sessions.SeenHash(g.call.SessionID, g.call.AgentID, rel)
}

// recordSeen remembers what the call's agent saw or wrote, and the model
// and transcript of its session when they are news.
func (g *Gate) recordSeen(ctx context.Context, hashes map[string]string) error {
	if err := g.Sessions.RecordSeen(ctx, g.call.SessionID, g.call.AgentID, hashes); err != nil {
		return fmt.Errorf("session state: %w", err)
	}
	if (g.call.Model != "" && g.call.Model != g.session.Model) || (g.call.TranscriptPath != "" && g.call.TranscriptPath != g.session.Transcript) {
		return g.updateSession(ctx, func(*state.Session) {})
	}
	return nil
}

// updateSession changes the call's session state under its lock.
func (g *Gate) updateSession(ctx context.Context, fn func(*state.Session)) error {
	return g.updateSessionAt(ctx, g.env.now(), fn)
}

// updateSessionAt is updateSession with the time the state is last seen.
func (g *Gate) updateSessionAt(ctx context.Context, now time.Time, fn func(*state.Session)) error {
	err := g.Sessions.Update(ctx, g.call.SessionID, now, func(s *state.Session) error {
		if g.call.Model != "" {
			s.Model = g.call.Model
		}
		if g.call.TranscriptPath != "" {
			s.Transcript = g.call.TranscriptPath
		}
		fn(s)
		g.session = s
		return nil
	})
	if err != nil {
		return fmt.Errorf("session state: %w", err)
	}
	return nil
}

// Explain prints the explanation gathered so far.
func (g *Gate) Explain() { g.explain.flush() }

// Notes returns the non-fatal warnings gathered during the call (a record
// or lesson that could not be written), for stderr.
func (g *Gate) Notes() []string { return g.notes }

// applyTools classes the call by the settings' tools: map before any step
// reads it: a mapped tool's files are read from the usual input keys. Post
// applies it only after the guard put back the rules the command started
// under, so that a command cannot reclassify its own call.
func (g *Gate) applyTools() { protocol.Override(g.call, g.Config.Tools) }

// class is the call's tool class, the settings' tools: map applied
// (applyTools).
func (g *Gate) class() hook.Class {
	if g.call.Class == "" {
		return hook.ClassUnclassified
	}
	return g.call.Class
}

// stateBusy denies a call whose decision needs state that cannot be had
// now: the model is told to retry, the person what is wrong with state/.
func (g *Gate) stateBusy(what string, err error) hook.Decision {
	g.explain.step("state", "busy", what)
	return hook.Denial{
		Code:     hook.CodeStateBusy,
		Headline: "intenthook is busy: " + what + "; retry",
		Why:      "this call can only be judged with intenthook's state under .orchestration/state/, and it cannot be had now: " + safetext.OneLine(err.Error()),
		Instead:  "retry the call in a moment; if this repeats, tell the user that .orchestration/state/ is locked or not writable (`intenthook doctor` checks it)",
		Evidence: []string{hook.Ev("tool", g.call.ToolName), hook.Ev("session", g.call.SessionID)},
	}.Decision()
}

// closedWithoutState answers a write-class call under fail_mode closed
// when the session's state could not be read: nothing is let through on a
// picture intenthook could not take.
func (g *Gate) closedWithoutState() *hook.Decision {
	if g.stateErr == nil || !g.Config.Closed() {
		return nil
	}
	d := g.stateBusy("the session state cannot be read", g.stateErr)
	return &d
}
