// Package cursor speaks Cursor's hook protocol as documented
// (PROTOCOLS.md §2.3; Cursor is not installable here, so it is documented,
// not verified live): .cursor/hooks.json with beforeShellExecution,
// beforeMCPExecution, preToolUse and their after-events, afterFileEdit for
// edits (after the fact), conversation_id as the session and
// workspace_roots for the workspace; answers as {"permission": …} JSON with
// both casings of the messages.
package cursor

import (
	"fmt"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/hook"
)

// Name is the --agent value.
const Name = "cursor"

// HooksFile is Cursor's project hooks file.
const HooksFile = ".cursor/hooks.json"

// Governance are Cursor's rows of the governance table: the
// descriptor's, reachable without building it.
var Governance = governed.Table{
	// Judged by effect: besides the hooks, the format's version.
	{Path: HooksFile, Use: governed.Wiring, Watch: governed.HookSettings, Hooks: &governed.Hooks{Keys: []string{"version"}}, Reason: "Cursor's hooks"},
	{Path: ".cursor/mcp.json", Use: governed.Rules, Reason: "Cursor's MCP servers, intenthook's among them"},
	{Path: ".cursor/sandbox.json", Use: governed.Rules, Reason: "Cursor's sandbox for this workspace: its type (insecure_none turns it off), the paths and the network it opens to the agent's commands"},
}

// Agent describes Cursor.
func Agent() protocol.Agent {
	return protocol.Agent{
		Name:           Name,
		Title:          "Cursor",
		Verified:       "documented, not verified live",
		Decode:         Decode,
		Tools:          Tools(),
		Encode:         Encode,
		ProjectDirVars: []string{"CURSOR_PROJECT_DIR"},
		Settings:       []string{HooksFile},
		Governance:     Governance,
		Sample:         Sample,
		Wire:           Wire,
		Check:          Check,
		// Cursor's documented project MCP file; its beforeMCPExecution
		// event names the tool bare (select_active_intent).
		MCP: protocol.MCPServers(".cursor/mcp.json"),
	}
}

// Events maps Cursor's events to the hook events.
func Events() map[string]string {
	return map[string]string{
		"beforeShellExecution": hook.PreToolUse,
		"beforeMCPExecution":   hook.PreToolUse,
		"preToolUse":           hook.PreToolUse,
		"afterShellExecution":  hook.PostToolUse,
		"afterMCPExecution":    hook.PostToolUse,
		"afterFileEdit":        hook.PostToolUse,
		"postToolUse":          hook.PostToolUse,
		"beforeReadFile":       hook.PreToolUse,
		"sessionStart":         hook.SessionStart,
		"beforeSubmitPrompt":   hook.UserPromptSubmit,
	}
}

// Tools is Cursor's tool table for the generic tool events; the shell and
// file-edit events name their tool themselves.
func Tools() protocol.Tools { return tools }

var tools = protocol.Tools{
	{Name: "Shell", Tool: protocol.Tool{Class: hook.ClassShell}},
	{Name: "run_terminal_cmd", Tool: protocol.Tool{Class: hook.ClassShell}},
	{Name: "edit_file", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"target_file", "file_path", "path"}}},
	{Name: "Write", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"file_path", "path"}, WholeFile: true}},
	{Name: "Edit", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"file_path", "path"}}},
	{Name: "search_replace", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"file_path", "path"}}},
	{Name: "delete_file", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"target_file", "file_path", "path"}}},
	{Name: "Read", Tool: protocol.Tool{Class: hook.ClassRead, Path: []string{"file_path", "path"}}},
	{Name: "read_file", Tool: protocol.Tool{Class: hook.ClassRead, Path: []string{"target_file", "file_path", "path"}}},
}

// Decode turns one Cursor event into a Call.
func Decode(ev protocol.Object, event string) (*hook.Call, error) {
	name := ev.Str("hook_event_name")
	c := &hook.Call{
		Agent:          Name,
		Event:          event,
		SessionID:      ev.Str("conversation_id"),
		TranscriptPath: ev.Str("transcript_path"),
		Model:          ev.Str("model"),
		Prompt:         ev.Str("prompt"),
		Cwd:            protocol.NativePath(ev.Str("cwd")),
		ToolUseID:      ev.Str("generation_id"),
	}
	if e, ok := Events()[name]; ok {
		c.Event = e
	}
	if c.Cwd == "" {
		if roots := ev.Strs("workspace_roots"); len(roots) > 0 {
			c.Cwd = protocol.NativePath(roots[0])
		}
	}
	switch name {
	case "beforeShellExecution", "afterShellExecution":
		c.ToolName, c.Class, c.Command = "Shell", hook.ClassShell, ev.Str("command")
	case "afterFileEdit":
		c.ToolName, c.Class = "Edit", hook.ClassWrite
		if p := ev.Str("file_path"); p != "" {
			c.Paths = []string{protocol.NativePath(p)}
		}
		for _, e := range ev.Objs("edits") {
			if s, ok := e.StrOK("new_string"); ok {
				c.NewStrings = append(c.NewStrings, s)
			}
		}
	case "beforeReadFile":
		c.ToolName, c.Class = "Read", hook.ClassRead
	case "beforeMCPExecution", "afterMCPExecution":
		// The event names the tool bare and its server apart.
		c.ToolName = protocol.MCPName(ev.Str("tool_name"), ev.Str("mcp_server_name", "server_name"))
		input, _ := ev.StrOK("tool_input") // a JSON string
		Tools().Fill(c, []byte(input))
	default:
		c.ToolName = ev.Str("tool_name")
		Tools().Fill(c, ev["tool_input"])
	}
	return c, nil
}

type answer struct {
	Permission   string `json:"permission,omitempty"`
	UserMessage  string `json:"user_message,omitempty"`
	AgentMessage string `json:"agent_message,omitempty"`
	UserMsg      string `json:"userMessage,omitempty"`
	AgentMsg     string `json:"agentMessage,omitempty"`
	Continue     *bool  `json:"continue,omitempty"`
}

// Encode answers Cursor: before-events with a permission (and exit 2 with
// the reason on stderr for a deny, which Cursor's documentation and
// third-party adapters agree blocks); a prompt always continues.
func Encode(c *hook.Call, d hook.Decision, budget int) hook.Answer {
	msg := hook.Clip(d.Message, budget)
	var a hook.Answer
	switch {
	case c.Event == hook.UserPromptSubmit:
		yes := true
		a.Stdout = protocol.JSON(answer{Continue: &yes})
	case d.Verdict == hook.Deny || d.Violation:
		a.Exit = 2
		a.Stdout = protocol.JSON(answer{Permission: "deny", UserMessage: msg, AgentMessage: msg, UserMsg: msg, AgentMsg: msg})
		a.Stderr = msg + "\n"
	case c.Event == hook.PreToolUse && d.Verdict == hook.Ask:
		a.Stdout = protocol.JSON(answer{Permission: "ask", UserMessage: msg, AgentMessage: msg, UserMsg: msg, AgentMsg: msg})
	case c.Event == hook.PreToolUse:
		a.Stdout = allowed
	}
	return a
}

// allowed is the answer to an allowed call, the answer to nearly every
// call, written out: encoding/json's reflection over answer would cost
// the hook's path more than the rest of the answer (TestAllowed holds it
// to the encoder's).
const allowed = `{"permission":"allow"}` + "\n"

// Hooks is the wiring init writes.
func Hooks() []protocol.FlatHook {
	args := "--agent " + Name
	return []protocol.FlatHook{
		{Event: "beforeShellExecution", Subcommand: "pre", Args: args},
		{Event: "beforeMCPExecution", Subcommand: "pre", Args: args},
		{Event: "preToolUse", Subcommand: "pre", Args: args},
		{Event: "afterShellExecution", Subcommand: "post", Args: args},
		{Event: "afterFileEdit", Subcommand: "post", Args: args},
		{Event: "postToolUse", Subcommand: "post", Args: args},
		{Event: "sessionStart", Subcommand: "context", Args: args},
	}
}

// Wire merges the hooks into .cursor/hooks.json.
func Wire(root string) (protocol.Change, error) {
	ch, err := protocol.WireFlat(root, HooksFile, true, protocol.FlatForInstall(root, Agent(), Hooks()))
	if err == nil {
		ch.Notes = append(ch.Notes, "Cursor's protocol is wired from its documentation, not verified against a live client; older Cursor versions have no before-edit event, so edits are only recorded after the fact and precommit carries the fence")
	}
	return ch, err
}

// Check checks .cursor/hooks.json.
func Check(root string, env protocol.CheckEnv) (bool, []protocol.Check) {
	return protocol.CheckFlat(Agent(), root, HooksFile, Hooks(), env)
}

// Sample is a PreToolUse event for an edit of rel (root-relative) in
// session, as the agent sends it: for tests and make bench.
func Sample(root, rel, session, id string) []byte {
	return fmt.Appendf(nil, `{"conversation_id":%q,"generation_id":%q,"hook_event_name":"preToolUse","cursor_version":"1.7.0","workspace_roots":[%q],"tool_name":"Edit","tool_input":{"file_path":%q}}`, session, id, root, root+"/"+rel)
}
