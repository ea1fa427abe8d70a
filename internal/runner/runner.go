// Package runner runs one hook process from end to end: it decodes the
// agent's event, opens the gate, runs the pipeline, applies the fail mode to
// every error (and panic), and encodes the answer. Hooks exit 0 or 2, never
// anything else, and never print a Go panic trace.
package runner

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/agent/claude"
	"github.com/intenthook/intenthook/internal/agent/described"
	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/full"
	"github.com/intenthook/intenthook/internal/gate"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/workspace"
)

// Pipeline is one hook's work on an opened gate.
type Pipeline func(ctx context.Context, g *gate.Gate) (hook.Decision, error)

// Hook describes a hook command.
type Hook struct {
	Event string // the event the answer is shaped for when the input names none
	// Agent is --agent: the agent whose protocol the event speaks; empty
	// means detect it from the event (Claude Code when it cannot tell).
	Agent    string
	Pipeline Pipeline
	// AlwaysOpen hooks never block on errors (context: exit 2 on
	// UserPromptSubmit would erase the user's prompt).
	AlwaysOpen bool
}

// IO is the process's standard streams.
type IO struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// Run runs h and returns the exit code (0 or 2).
func Run(h Hook, env *gate.Env, std IO) (code int) {
	getenv := env.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if getenv("INTENTHOOK_DISABLE") == "1" {
		return 0
	}
	// A hook lives for a few milliseconds: collecting garbage would only
	// delay it. The memory limit brings the collector back should an
	// outsized event or catalog need it.
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(256 << 20)
	var cfg *config.Config
	call := &hook.Call{Event: h.Event} // until the event is decoded
	ag, err := agent.Lookup(orDefault(h.Agent))
	ownAgent := err != nil // the workspace's own description names it
	var loaded struct {
		root string
		ag   protocol.Agent
	}
	if err != nil {
		// A workspace's own agent (.orchestration/agents/NAME.json), found
		// from --root or the hook's working directory: its description
		// says where the event names the cwd, so the event cannot tell.
		root := workspace.HookRoot(env.Root, "", "", env.Wd)
		ag, err = agent.LookupIn(root, h.Agent)
		if err == nil {
			loaded.root, loaded.ag = root, ag
		}
		if err != nil && root != "" && !errors.Is(err, agent.ErrBadDescription) {
			ag, err = undescribed(h, root, err)
		}
	}
	if errors.Is(err, agent.ErrBadDescription) {
		return badDescription(h, err, std)
	}
	if err != nil {
		return UsageError(h.Event, err, env, std)
	}
	defer func() {
		if r := recover(); r != nil {
			code = fail(h, ag, call, cfg, fmt.Errorf("internal error: %v", r), std, env, getenv)
		}
	}()
	ev, err := protocol.ReadEvent(std.Stdin)
	if err != nil {
		return fail(h, ag, call, cfg, err, std, env, getenv)
	}
	if h.Agent == "" {
		if ag, err = agent.Lookup(agent.Detect(ev)); err != nil {
			return fail(h, ag, call, cfg, err, std, env, getenv)
		}
	}
	decoded, err := ag.Decode(ev, h.Event)
	if err != nil {
		return fail(h, ag, call, cfg, err, std, env, getenv)
	}
	call = decoded
	if hook.Ignored(call.Event) {
		// Not a tool about to run nor one that ran: a PermissionDenied
		// names a Write that never happens, and must be neither judged
		// nor recorded.
		return unsaid(ag, call, std)
	}
	call.PairCall()
	if rest, ok := strings.CutPrefix(ag.User, "~/"); ok && ag.WireUser != nil {
		if home := cmp.Or(getenv("HOME"), getenv("USERPROFILE")); home != "" {
			call.UserWiring = filepath.Join(home, filepath.FromSlash(rest))
		}
	}
	call.ModsDirs = claude.ModsDirs(getenv)
	env.ProjectDirVars = ag.ProjectDirVars
	env.AgentRows = agent.Governance()
	env.RootRows = agent.WorkspaceRows
	if ownAgent {
		// The calling agent's description is watched even when a command
		// took it away: the guard puts it back.
		env.RootRows = func(root string) governed.Table {
			var self protocol.Agent
			if root == loaded.root {
				self = loaded.ag // parsed once per call
			}
			rows := agent.WorkspaceRowsWith(root, self)
			if !slices.Contains(described.List(root), h.Agent) {
				rows = append(rows, described.Rows(h.Agent)...)
			}
			return rows
		}
	}
	if w := ag.MCP; w != nil && w.Command != nil {
		env.MCPWired = func(root string) bool { _, ok := w.Command(root); return ok }
	}
	g, err := gate.Open(env, call)
	if g != nil {
		cfg = g.Config
	}
	if err != nil {
		return fail(h, ag, call, cfg, err, std, env, getenv)
	}
	if g == nil {
		// Governance off: nothing printed, nothing written; unless the
		// work tree was governed and its rules are gone, or the call is one
		// intenthook cannot place of an agent whose events name their
		// project (Junie).
		d, missing := gate.GovernanceMissing(env, call)
		if !missing {
			d, missing = gate.ProjectUnknown(env, call)
		}
		if missing {
			ans := ag.Encode(call, d, config.Default().ContextBudgetBytes)
			emit(std.Stdout, ans.Stdout)
			emit(std.Stderr, ans.Stderr)
			return ans.Exit
		}
		return unsaid(ag, call, std)
	}
	// All the locks of one call wait lock_timeout at most together.
	ctx := state.WithLockBudget(context.Background(), g.Config.LockTimeout)
	d, err := h.Pipeline(ctx, g)
	if err != nil {
		return fail(h, ag, call, cfg, err, std, env, getenv)
	}
	d.Notes = append(d.Notes, g.Notes()...)
	ans := ag.Encode(call, spoken(d), g.Budget())
	if h.AlwaysOpen && ans.Exit != 0 {
		ans.Exit = 0
	}
	emit(std.Stdout, ans.Stdout)
	emit(std.Stderr, ans.Stderr)
	g.Explain()
	return ans.Exit
}

// fail applies the fail mode to err: open answers exit 0 with a warning,
// closed denies with internal_error. Without a governed root the error is
// nobody's business: governance is off there.
func fail(h Hook, ag protocol.Agent, call *hook.Call, cfg *config.Config, err error, std IO, env *gate.Env, getenv func(string) string) (code int) {
	defer func() {
		// The last line of defence: even a failure while failing must not
		// print a trace or exit with another code.
		if r := recover(); r != nil {
			fmt.Fprintf(std.Stderr, "intenthook: error: %s\n", safetext.Flat(fmt.Sprint(r)))
			code = 0
		}
	}()
	if ag.Encode == nil {
		ag, _ = agent.Lookup(agent.Default)
	}
	if call == nil {
		call = &hook.Call{Event: h.Event}
	}
	if cfg == nil {
		projectDir := ""
		for _, v := range ag.ProjectDirVars {
			if projectDir = getenv(v); projectDir != "" {
				break
			}
		}
		root := workspace.HookRoot(env.Root, projectDir, call.Cwd, env.Wd)
		if root == "" {
			// No workspace to say how to fail: the environment's fail mode
			// still holds (bad input must not slip through a closed gate).
			cfg = config.Default()
			if getenv("INTENTHOOK_FAIL_MODE") != "closed" {
				return 0
			}
			cfg.FailMode = "closed"
		} else {
			cfg, _ = config.Load(root, getenv)
		}
	}
	budget := cfg.ContextBudgetBytes
	if budget <= 0 {
		budget = config.Default().ContextBudgetBytes // an invalid setting is what failed
	}
	msg := safetext.Flat(err.Error())
	if cfg.Closed() && !h.AlwaysOpen {
		d := hook.Decision{Verdict: hook.Deny, Code: hook.CodeInternalError, Message: fmt.Sprintf("intenthook: deny [%s] %s", hook.CodeInternalError, msg)}
		ans := ag.Encode(call, d, budget)
		emit(std.Stdout, ans.Stdout)
		emit(std.Stderr, ans.Stderr)
		return ans.Exit
	}
	fmt.Fprintf(std.Stderr, "intenthook: error: %s\n", msg)
	if call.Event == hook.PreToolUse {
		ans := ag.Encode(call, hook.Decision{Warning: "intenthook: governance was skipped for this tool call: " + msg}, budget)
		emit(std.Stdout, ans.Stdout)
		return 0
	}
	return unsaid(ag, call, std)
}

// unsaid answers a call intenthook has nothing to say about: nothing,
// unless the agent reads no answer as a refusal (AnswerAlways), which gets
// its answer to an empty decision.
func unsaid(ag protocol.Agent, call *hook.Call, std IO) int {
	if !ag.AnswerAlways || ag.Encode == nil {
		return 0
	}
	emit(std.Stdout, ag.Encode(call, hook.Decision{}, config.Default().ContextBudgetBytes).Stdout)
	return 0
}

// badDescription answers a call of a workspace's agent whose description
// does not load: before a tool, a deny by exit 2 with the reason on stderr
// (what every Claude-shaped agent reads as one), whatever the fail mode: a
// person's typo in a rules file must not turn governance off; any other
// event passes, the error on stderr.
// undescribed answers --agent NAME in a governed workspace where no
// description of NAME loads (a program renamed it away): never a usage
// error, which the default fail mode would let through with governance
// off. Before a tool the call is denied (badDescription); after one, the
// description the guard pictured before the command decodes the event, so
// that the guard runs and puts the description back.
func undescribed(h Hook, root string, err error) (protocol.Agent, error) {
	if h.Event != hook.PreToolUse {
		if ag, ok := agent.KeptDescription(root, h.Agent); ok {
			return ag, nil
		}
	}
	return protocol.Agent{}, fmt.Errorf("%w: %w (this work tree is governed: --agent must name a description under %s)", agent.ErrBadDescription, err, described.Dir)
}

func badDescription(h Hook, err error, std IO) int {
	msg := safetext.Flat(err.Error())
	if h.Event != hook.PreToolUse || h.AlwaysOpen {
		fmt.Fprintf(std.Stderr, "intenthook: error: %s\n", msg)
		return 0
	}
	fmt.Fprintf(std.Stderr, "intenthook: deny [%s] %s\ninstead: ask a person to fix the description; intenthook doctor names the problem\n", hook.CodeInternalError, msg)
	return 2
}

// emit writes an answer's part; a silent allow writes nothing (no empty
// write: a system call each).
func emit(w io.Writer, s string) {
	if s != "" {
		io.WriteString(w, s)
	}
}

// UsageError answers a hook command whose own command line is wrong (a bad
// flag in a hooks file) through the fail mode.
func UsageError(event string, err error, env *gate.Env, std IO) int {
	getenv := env.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if getenv("INTENTHOOK_DISABLE") == "1" {
		return 0
	}
	return fail(Hook{Event: event, AlwaysOpen: event == hook.SessionStart}, protocol.Agent{}, &hook.Call{Event: event}, nil, fmt.Errorf("usage: %w", err), std, env, getenv)
}

func orDefault(name string) string {
	if name == "" {
		return agent.Default
	}
	return name
}

// spoken is d with the commands its texts name in the form that runs
// intenthook in this workspace (full.Speak): `npx --no-install intenthook
// select <ID>` where npm installed it. A silent allow has no text and costs
// nothing.
func spoken(d hook.Decision) hook.Decision {
	if d.Message == "" && d.Context == "" && d.Warning == "" {
		return d
	}
	d.Message, d.Context, d.Warning = full.Speak(d.Message), full.Speak(d.Context), full.Speak(d.Warning)
	return d
}
