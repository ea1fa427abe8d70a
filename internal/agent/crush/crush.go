// Package crush speaks Crush's hook protocol (charmbracelet/crush,
// docs/hooks/README.md and internal/hooks, read at the source, and run by
// hand against the mock model): one event, PreToolUse, configured in a flat list under "hooks" in
// crush.json or .crush.json ({"matcher": regex, "command": …, "timeout"}),
// its stdin {event, session_id, cwd, tool_name, tool_input} (note event, not
// hook_event_name), exit 2 with the reason on stderr to deny, exit 49 to
// halt the turn, and on exit 0 a JSON envelope on stdout ({"decision":
// "allow"|"deny", "reason", "context", "updated_input"}). Crush runs no hook
// after a tool, none at a session's start, and none for its subagents'
// tools (agent, agentic_fetch), which are Crush's read-only tools.
package crush

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/hook"
)

// Name is the --agent value.
const Name = "crush"

// Title names the agent for people.
const Title = "Crush"

// SettingsFile is the project configuration init writes: Crush reads
// .crush.json before crush.json (and .crushrc, crushrc, shell scripts that
// print configuration, before both).
const SettingsFile = ".crush.json"

// Governance are Crush's rows of the governance table: every project file
// Crush builds its configuration from, the hooks among it. Crush looks for
// them from its working directory up to the repository's root, and merges
// what it finds.
var Governance = governed.Table{
	{Path: SettingsFile, Use: governed.Wiring, Watch: governed.HookSettings, Hooks: hookSettings, Reason: "Crush's hooks and MCP servers"},
	{Path: "crush.json", Use: governed.Wiring, Watch: governed.HookSettings, Hooks: hookSettings, Reason: "Crush's hooks and MCP servers (read after .crush.json)"},
	{Path: ".crushrc", Use: governed.Wiring, Reason: "a shell script whose output is Crush's configuration, hooks included"},
	{Path: "crushrc", Use: governed.Wiring, Reason: "a shell script whose output is Crush's configuration, hooks included"},
	{Path: ".crush/crush.json", Use: governed.Wiring, Reason: "the configuration Crush writes for this workspace, merged over the project's"},
}

// hookSettings is how the guard judges Crush's JSON configuration by
// effect: besides the hooks, what makes Crush start a program (mcp, lsp)
// and the environment it sets (env: a PATH there picks the hook program).
var hookSettings = &governed.Hooks{Keys: []string{"mcp", "lsp", "env"}, Matchers: []string{preMatcher}}

// Agent describes Crush.
func Agent() protocol.Agent {
	return protocol.Agent{
		Name:           Name,
		Title:          Title,
		Verified:       "its source tree of 2026-08, run by hand against the mock model (not in make e2e: the npm package downloads its binary from outside the registries reachable here)",
		Decode:         Decode,
		Tools:          Tools(),
		Encode:         Encode,
		ProjectDirVars: []string{"CRUSH_PROJECT_DIR"},
		// Crush's bash tool sets CRUSH=1 (and AGENT=crush, AI_AGENT=crush).
		ShellMarkers: []string{"CRUSH"},
		Settings:     []string{SettingsFile},
		Governance:   Governance,
		Sample:       Sample,
		Wire:         Wire,
		Check:        Check,
		NoPostTool:   true,
		GradeNote:    "Crush's subagents (agent, agentic_fetch) run unhooked, with its read-only tools",
	}
}

// Tools is Crush's tool table. lsp_rename renames a symbol in every file
// that uses it: no input names them, so it is a write whose targets cannot
// be found (target_unknown). The subagent tools run Crush's read-only tools
// without hooks.
func Tools() protocol.Tools { return tools }

var tools = protocol.Tools{
	{Name: "write", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"file_path"}, WholeFile: true}},
	{Name: "edit", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"file_path"}, NewStrings: []string{"new_string"}}},
	{Name: "multiedit", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"file_path"}}},
	{Name: "download", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"file_path"}, WholeFile: true}},
	{Name: "lsp_replace_symbol", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"file_path"}}},
	{Name: "lsp_rename", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"file_path"}}},
	{Name: "bash", Tool: protocol.Tool{Class: hook.ClassShell, Dir: "working_dir"}},
	{Name: "view", Tool: protocol.Tool{Class: hook.ClassRead, Path: []string{"file_path"}}},
	{Name: "ls", Tool: exempt}, {Name: "glob", Tool: exempt}, {Name: "grep", Tool: exempt}, {Name: "fetch", Tool: exempt},
	{Name: "web_fetch", Tool: exempt}, {Name: "web_search", Tool: exempt}, {Name: "sourcegraph", Tool: exempt},
	{Name: "diagnostics", Tool: exempt}, {Name: "references", Tool: exempt}, {Name: "todos", Tool: exempt},
	{Name: "job_output", Tool: exempt}, {Name: "job_kill", Tool: exempt}, {Name: "question", Tool: exempt},
	{Name: "agent", Tool: exempt}, {Name: "agentic_fetch", Tool: exempt},
	{Name: "crush_info", Tool: exempt}, {Name: "crush_logs", Tool: exempt},
	{Name: "lsp_definition", Tool: exempt}, {Name: "lsp_symbols", Tool: exempt}, {Name: "lsp_call_hierarchy", Tool: exempt}, {Name: "lsp_restart", Tool: exempt},
	{Name: "list_mcp_resources", Tool: exempt}, {Name: "read_mcp_resource", Tool: exempt},
}

var exempt = protocol.Tool{Class: hook.ClassExempt}

// Decode turns one Crush event into a Call: Crush names the event in
// "event" and sends no tool-use id.
func Decode(ev protocol.Object, event string) (*hook.Call, error) {
	c := protocol.DecodeClaudeShaped(Name, ev, event)
	if e := ev.Str("event"); e != "" && ev.Str("hook_event_name") == "" {
		c.Event = e
	}
	Tools().Fill(c, ev["tool_input"])
	for _, e := range protocol.AsObject(ev["tool_input"]).Objs("edits") {
		if s, ok := e.StrOK("new_string"); ok {
			c.NewStrings = append(c.NewStrings, s)
		}
	}
	return c, nil
}

// envelope is Crush's answer on exit 0: context is appended to what the
// model sees; no decision leaves Crush's own permission prompt in place.
type envelope struct {
	Context string `json:"context,omitempty"`
}

// Encode answers Crush: a deny (and a violation) is exit 2 with the reason
// on stderr; Crush has no ask from a hook (no decision falls through to its
// own permission prompt, which --yolo answers), so an ask is an
// instructive deny; an allow's context goes in the envelope. intenthook
// never answers "allow", which would skip that prompt.
func Encode(c *hook.Call, d hook.Decision, budget int) hook.Answer {
	if d.Verdict == hook.Ask {
		d = protocol.AskAsDeny(d, Title)
	}
	notes := strings.Join(d.Notes, "\n")
	if d.Verdict == hook.Deny || d.Violation {
		msg := strings.TrimSuffix(hook.Clip(strings.TrimSuffix(d.Message+"\n"+notes, "\n"), budget), "\n")
		return hook.Answer{Exit: 2, Stderr: msg + "\n"}
	}
	var a hook.Answer
	if notes != "" {
		a.Stderr = notes + "\n"
	}
	if d.Context != "" {
		a.Stdout = protocol.JSON(envelope{Context: hook.Clip(d.Context, budget)})
	}
	return a
}

// Hooks is the one hook intenthook needs in Crush: PreToolUse for every
// tool that writes, runs a command or reads (the regex matcher), timeout in
// seconds.
func Hooks() []protocol.FlatHook {
	return []protocol.FlatHook{{Event: "PreToolUse", Subcommand: "pre", Args: "--agent " + Name, Extra: []protocol.Field{
		{Key: "name", Value: "intenthook"},
		{Key: "matcher", Value: preMatcher},
		{Key: "timeout", Value: json.Number("30")},
	}}}
}

const preMatcher = "^(write|edit|multiedit|download|lsp_replace_symbol|lsp_rename|bash|view)$"

// Wire merges the hook into .crush.json.
func Wire(root string) (protocol.Change, error) {
	ch, err := protocol.WireFlat(root, SettingsFile, false, protocol.FlatForInstall(root, Agent(), Hooks()))
	if err == nil {
		ch.Notes = append(ch.Notes, "Crush runs hooks before a tool only: a write or command is checked before it runs, but no hook runs after it, so the guard and the backstop cannot judge what a command did and allowed writes are not recorded by the hook: intenthook precommit (and audit in CI) trace them; Crush's subagents (agent, agentic_fetch) run its read-only tools without hooks")
	}
	return ch, err
}

// Check checks .crush.json; the grade line (doctor's) says what Crush's
// one hook before a tool leaves open.
func Check(root string, env protocol.CheckEnv) (bool, []protocol.Check) {
	return protocol.CheckFlat(Agent(), root, SettingsFile, Hooks(), env)
}

// Sample is a PreToolUse event for an edit of rel (root-relative) in
// session, as Crush sends it: for tests and make bench.
func Sample(root, rel, session, id string) []byte {
	return fmt.Appendf(nil, `{"event":"PreToolUse","session_id":%q,"cwd":%q,"tool_name":"edit","tool_input":{"file_path":%q,"old_string":"x","new_string":"x"}}`, session, root, root+"/"+rel)
}
