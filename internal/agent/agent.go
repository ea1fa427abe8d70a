// Package agent lists the coding agents intenthook speaks to, one package
// each under it, and tells which one sent an event: by --agent, else by the
// event's shape where it is unambiguous, else Claude Code.
package agent

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/intenthook/intenthook/internal/agent/antigravity"
	"github.com/intenthook/intenthook/internal/agent/auggie"
	"github.com/intenthook/intenthook/internal/agent/claude"
	"github.com/intenthook/intenthook/internal/agent/cline"
	"github.com/intenthook/intenthook/internal/agent/codex"
	"github.com/intenthook/intenthook/internal/agent/copilot"
	"github.com/intenthook/intenthook/internal/agent/crush"
	"github.com/intenthook/intenthook/internal/agent/cursor"
	"github.com/intenthook/intenthook/internal/agent/described"
	"github.com/intenthook/intenthook/internal/agent/droid"
	"github.com/intenthook/intenthook/internal/agent/gemini"
	"github.com/intenthook/intenthook/internal/agent/kilo"
	"github.com/intenthook/intenthook/internal/agent/opencode"
	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/agent/qwen"
	"github.com/intenthook/intenthook/internal/agent/vscode"
	"github.com/intenthook/intenthook/internal/agent/windsurf"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/guard"
)

// Default is the agent assumed when nothing says otherwise.
const Default = claude.Name

// native is one agent written in Go: its name, its rows of the governance
// table, and its descriptor's constructor.
type native struct {
	name       string
	governance governed.Table
	agent      func() protocol.Agent
}

// natives lists the agents written in Go, Claude Code first, then by name.
// A function returning an array, not a package variable: the table names
// other packages' variables, which a variable would copy in this package's
// initialiser, on every hook's start, whatever the call.
func natives() [15]native {
	return [...]native{
		{claude.Name, claude.Governance, claude.Agent},
		{antigravity.Name, antigravity.Governance, antigravity.Agent},
		{auggie.Name, auggie.Governance, auggie.Agent},
		{cline.Name, cline.Governance, cline.Agent},
		{codex.Name, codex.Governance, codex.Agent},
		{copilot.Name, copilot.Governance, copilot.Agent},
		{crush.Name, crush.Governance, crush.Agent},
		{cursor.Name, cursor.Governance, cursor.Agent},
		{droid.Name, droid.Governance, droid.Agent},
		{gemini.Name, gemini.Governance, gemini.Agent},
		{kilo.Name, kilo.Governance, kilo.Agent},
		{opencode.Name, opencode.Governance, opencode.Agent},
		{qwen.Name, qwen.Governance, qwen.Agent},
		{vscode.Name, vscode.Governance, vscode.Agent},
		{windsurf.Name, windsurf.Governance, windsurf.Agent},
	}
}

// each calls yield with every agent's name, Claude Code first, then by
// name: the agents written in Go and the shipped descriptions
// (described/builtin/*.json), both lists sorted, merged. It builds no
// descriptor and allocates nothing: a hook call needs every agent's
// governance rows and its own agent's descriptor only.
func each(yield func(name string, governance governed.Table)) {
	list := natives()
	yield(list[0].name, list[0].governance)
	rest, shipped := list[1:], described.BuiltinNames()
	for len(rest) > 0 || len(shipped) > 0 {
		if len(shipped) == 0 || len(rest) > 0 && rest[0].name < shipped[0] {
			yield(rest[0].name, rest[0].governance)
			rest = rest[1:]
			continue
		}
		yield(shipped[0], described.BuiltinRows(shipped[0]))
		shipped = shipped[1:]
	}
}

// built holds the descriptors made so far, by name: each is made once.
var built struct {
	sync.Mutex
	agents map[string]protocol.Agent
}

// build returns the descriptor of the built-in agent name, made on first use.
func build(name string) (protocol.Agent, bool) {
	built.Lock()
	defer built.Unlock()
	if ag, ok := built.agents[name]; ok {
		return ag, true
	}
	var newAgent func() protocol.Agent
	for _, n := range natives() {
		if n.name == name {
			newAgent = n.agent
			break
		}
	}
	if newAgent == nil {
		b, ok := described.BuiltinNamed(name)
		if !ok {
			return protocol.Agent{}, false
		}
		newAgent = b.Agent
	}
	if built.agents == nil {
		built.agents = map[string]protocol.Agent{}
	}
	ag := newAgent()
	built.agents[name] = ag
	return ag, true
}

// All returns every agent, Claude Code first, then by name, each
// descriptor made once.
func All() []protocol.Agent {
	var list []protocol.Agent
	each(func(name string, _ governed.Table) {
		ag, _ := build(name)
		list = append(list, ag)
	})
	return list
}

// Governance returns every agent's rows of the governance table, in All's
// order (each descriptor's Governance), without building the descriptors.
func Governance() []governed.Table {
	out := make([]governed.Table, 0, len(natives())+len(described.BuiltinNames()))
	each(func(_ string, rows governed.Table) { out = append(out, rows) })
	return out
}

// Lookup returns the agent named name.
func Lookup(name string) (protocol.Agent, error) {
	if ag, ok := build(name); ok {
		return ag, nil
	}
	return protocol.Agent{}, fmt.Errorf("unknown agent %q (known: %s)", name, strings.Join(Names(), ", "))
}

// LookupIn returns the agent named name: a built-in one, else the
// workspace's description of it under root (.orchestration/agents/NAME.json,
// never detected: only --agent names it). root may be "" (no workspace).
func LookupIn(root, name string) (protocol.Agent, error) {
	ag, err := Lookup(name)
	if err == nil || root == "" {
		return ag, err
	}
	d, derr := described.Load(root, name)
	if errors.Is(derr, described.ErrNotDescribed) {
		return protocol.Agent{}, err
	}
	if derr != nil {
		return protocol.Agent{}, fmt.Errorf("%w: %w", ErrBadDescription, derr)
	}
	return d.Agent(), nil
}

// KeptDescription is the description of the workspace's agent name as the
// guard kept it at its last picture (state/guard/), for a hook after a
// tool whose command took the description away: the guard's check that
// follows puts it back.
func KeptDescription(root, name string) (protocol.Agent, bool) {
	src, ok := guard.KeptFile(root, described.Dir+"/"+name+".json")
	if !ok {
		return protocol.Agent{}, false
	}
	d, err := described.Parse(src)
	if err != nil || d.Name != name {
		return protocol.Agent{}, false
	}
	return d.Agent(), true
}

// ErrBadDescription marks a workspace's description that exists and does
// not load: its agent's calls are denied, whatever the fail mode.
var ErrBadDescription = errors.New("the agent's description does not load")

// WorkspaceAgents names the workspace's own described agents under root.
func WorkspaceAgents(root string) []string { return described.List(root) }

// WorkspaceRows are the governance rows of the workspace's own agent
// descriptions under root: each description, watched whole by the guard,
// and the wiring it names (its settings file and switches), rows like a
// built-in agent's wiring, so that no agent rewrites a described agent's
// hooks. One directory read, nothing when the workspace has none; a
// description that does not load gives its own row alone (its agent's
// calls are denied until it loads).
func WorkspaceRows(root string) governed.Table { return WorkspaceRowsWith(root, protocol.Agent{}) }

// WorkspaceRowsWith is WorkspaceRows where self, an agent its hook already
// loaded from root's description of it, gives its own rows: a hook parses
// its description once.
func WorkspaceRowsWith(root string, self protocol.Agent) governed.Table {
	var out governed.Table
	for _, name := range described.List(root) {
		out = append(out, described.Rows(name)...)
		if name == self.Name {
			out = append(out, self.Governance...)
		} else if d, err := described.Load(root, name); err == nil {
			out = append(out, d.Governance()...)
		}
	}
	return out
}

// Names lists the agents' names.
func Names() []string {
	var out []string
	each(func(name string, _ governed.Table) { out = append(out, name) })
	return out
}

// Detect names the agent an event comes from when its shape says so
// unambiguously, else Default. The marks are fields or names only that
// agent sends (AGENT-PROTOCOLS.md): an event that could be Claude Code's is
// Claude Code's.
func Detect(ev protocol.Object) string {
	name := ev.Str("hook_event_name")
	switch {
	case ev.Has("agent_action_name") && ev.Has("trajectory_id"):
		return windsurf.Name
	case ev.Has("hookName") && ev.Has("taskId"):
		return cline.Name
	// The Antigravity CLI's protojson: a conversation and a tool call.
	case name == "" && ev.Has("conversationId") && (ev.Has("toolCall") || ev.Has("workspacePaths")):
		return antigravity.Name
	case name == "" && (ev.Has("sessionId") || ev.Has("toolName")):
		return copilot.Name
	// VS Code's agent keeps its transcripts under GitHub.copilot-chat
	// (1.119.0 captured); it runs Claude Code's settings files too, with
	// its own tool names.
	case vscode.IsTranscript(ev.Str("transcript_path")):
		return vscode.Name
	// Crush names its event "event" (docs/hooks/README.md).
	case name == "" && ev.Has("event") && ev.Has("tool_name"):
		return crush.Name
	case name == "":
		return Default
	case gemini.Events()[name] != "" && name != "SessionStart":
		return gemini.Name
	case ev.Has("cursor_version") || (ev.Has("conversation_id") && ev.Has("generation_id")):
		return cursor.Name
	case name == "PromptSubmit" || (ev.Has("conversation_id") && ev.Has("workspace_roots")):
		return auggie.Name
	case ev.Has("turn_id"):
		return codex.Name
	// Claude Code (2.1.330) sends a prompt_id too, a plain UUID; Qwen's is
	// "<session>########<n>".
	case ev.Has("tool_call_id") || strings.Contains(ev.Str("prompt_id"), "#"):
		return qwen.Name
	// Droid's Read and Edit are Claude Code's names and shape; its
	// transcripts live under ~/.factory, and its permission modes are its
	// autonomy levels (auto-low|medium|high), 0.225.2 captured.
	case isDroidTranscript(ev.Str("transcript_path")) || strings.HasPrefix(ev.Str("permission_mode"), "auto-"):
		return droid.Name
	// The OpenCode plugin's events are Claude-shaped; OpenCode's session
	// ids are "ses_…" (1.18.33 captured), Claude Code's UUIDs.
	case strings.HasPrefix(ev.Str("session_id"), "ses_"):
		return opencode.Name
	}
	switch ev.Str("tool_name") {
	case "Create", "Execute", "ApplyPatch":
		return droid.Name
	case "apply_patch":
		if protocol.AsObject(ev["tool_input"]).Has("command") {
			return codex.Name
		}
	}
	if copilotThroughClaude(ev) {
		return copilot.Name
	}
	return Default
}

// copilotThroughClaude recognises Copilot CLI running Claude-format hooks:
// its result comes as tool_result, its patches as a bare string input, and
// its file tools carry Copilot's argument names.
func copilotThroughClaude(ev protocol.Object) bool {
	if ev.Has("tool_result") {
		return true
	}
	if _, isString := protocol.String(ev["tool_input"]); isString {
		return true
	}
	in := protocol.AsObject(ev["tool_input"])
	return in.Has("file_text") || (in.Has("old_str") && !in.Has("file_path"))
}

func isDroidTranscript(p string) bool {
	return strings.Contains(p, "/.factory/sessions/") || strings.Contains(p, `\.factory\sessions\`)
}

// InShell reports which agent's shell the process runs in, by the
// variables agents set in their shell tool's environment (Claude Code:
// CLAUDECODE=1), and the variable that says so. It is a speed bump, not a
// wall: a program can unset them.
func InShell(getenv func(string) string) (title, variable string, ok bool) {
	for _, a := range All() {
		for _, v := range a.ShellMarkers {
			if getenv(v) != "" {
				return a.Title, v, true
			}
		}
	}
	return "", "", false
}
