// Package claude speaks Claude Code's hook protocol (PROTOCOLS.md §1), the
// one intenthook was born with: it decodes an event into a hook.Call, with
// Claude Code's tool table, and encodes a hook.Decision as exit 0 with JSON
// or exit 2 with stderr (never JSON with a non-zero exit). It also accepts
// what other agents send through Claude-format settings (Copilot CLI's
// argument names and bare patch strings, the seeds' tool names), wires
// .claude/settings.json for init and checks it for doctor.
package claude

import (
	"fmt"
	"time"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/hook"
)

// Name is the --agent value.
const Name = "claude"

// Governance are Claude Code's rows of the governance table: the
// descriptor's, reachable without building it.
var Governance = governed.Table{
	{Path: SettingsFile, Use: governed.Wiring, Watch: governed.HookSettings, Hooks: hookSettings, Reason: "Claude Code's project hooks and sandbox settings"},
	// Claude Code writes permissions there itself: the guard puts
	// back only the hooks and their off switches.
	{Path: LocalSettingsFile, Use: governed.Protected | governed.Guarded | governed.Sidecar | governed.Listed, Watch: governed.HookSettings, Hooks: hookSettings, Reason: "Claude Code's local settings: hooks there run too, and disableAllHooks turns them all off"},
	{Path: ".mcp.json", Use: governed.Rules, Reason: "the project's MCP servers, intenthook's among them"},
}

// Agent describes Claude Code.
func Agent() protocol.Agent {
	return protocol.Agent{
		Name:           Name,
		Title:          "Claude Code",
		Verified:       "2.1.330, live",
		Decode:         Decode,
		Tools:          Tools(),
		Encode:         Dialect.Encode,
		ProjectDirVars: []string{"CLAUDE_PROJECT_DIR"},
		ShellMarkers:   []string{"CLAUDECODE", "CLAUDE_CODE_SESSION_ID"},
		Settings:       []string{SettingsFile},
		Governance:     Governance,
		Sample:         Sample,
		MCP:            protocol.MCPServers(".mcp.json"),
		Wire:           Wire,
		PreTimeout:     &protocol.PreTimeout{File: SettingsFile, Event: "PreToolUse", Key: "timeout", Unit: time.Second, Unset: 600 * time.Second, Permission: hook.PermissionRequest},
		Check:          Check,
		Sandbox:        Sandbox,
	}
}

// Dialect is Claude Code's answer format: every verdict, context on every
// event, and a violation after the tool as JSON, so that the person sees
// its warning too.
var Dialect = protocol.Dialect{Title: "Claude Code", ViolationJSON: true}

// Tools is Claude Code's tool table, with the names the seeds' agents and
// Copilot CLI use through Claude-format settings.
func Tools() protocol.Tools { return tools }

var tools = protocol.Tools{
	{Name: "Write", Tool: write},
	{Name: "Edit", Tool: edit},
	{Name: "MultiEdit", Tool: edit},
	{Name: "NotebookEdit", Tool: protocol.Tool{Class: hook.ClassWrite, Path: filePath}},
	{Name: "Bash", Tool: protocol.Tool{Class: hook.ClassShell, Unsandbox: "dangerouslyDisableSandbox"}},
	{Name: "PowerShell", Tool: protocol.Tool{Class: hook.ClassShell}},
	{Name: "Read", Tool: protocol.Tool{Class: hook.ClassRead, Path: filePath}},
	{Name: "NotebookRead", Tool: protocol.Tool{Class: hook.ClassRead, Path: filePath}},

	{Name: "Glob", Tool: exempt}, {Name: "Grep", Tool: exempt}, {Name: "LS", Tool: exempt}, {Name: "WebFetch", Tool: exempt}, {Name: "WebSearch", Tool: exempt},
	{Name: "Task", Tool: exempt}, {Name: "Agent", Tool: exempt}, {Name: "TodoWrite", Tool: exempt}, {Name: "ExitPlanMode", Tool: exempt},
	{Name: "BashOutput", Tool: exempt}, {Name: "KillShell", Tool: exempt},

	// The seeds' (Roo Code) names.
	{Name: "write_to_file", Tool: write}, {Name: "apply_diff", Tool: edit}, {Name: "edit", Tool: edit}, {Name: "search_and_replace", Tool: edit},
	{Name: "search_replace", Tool: edit}, {Name: "edit_file", Tool: edit}, {Name: "insert_code_block", Tool: edit},
	{Name: "apply_patch", Tool: protocol.Tool{Class: hook.ClassWrite, Patch: "input"}},
	{Name: "delete_file", Tool: protocol.Tool{Class: hook.ClassDelete, Path: filePath}},
	{Name: "execute_command", Tool: protocol.Tool{Class: hook.ClassShell}},
	{Name: "read_file", Tool: protocol.Tool{Class: hook.ClassRead, Path: filePath}},
	{Name: "list_files", Tool: exempt}, {Name: "search_files", Tool: exempt}, {Name: "codebase_search", Tool: exempt},
	{Name: "ask_followup_question", Tool: exempt}, {Name: "attempt_completion", Tool: exempt}, {Name: "switch_mode", Tool: exempt},
	{Name: "new_task", Tool: exempt}, {Name: "update_todo_list", Tool: exempt}, {Name: "read_command_output", Tool: exempt},
	{Name: "run_slash_command", Tool: exempt}, {Name: "browser_action", Tool: exempt}, {Name: "skill", Tool: exempt},
	{Name: "access_mcp_resource", Tool: exempt},
}

// filePath: Claude Code's file_path, a notebook's notebook_path, and the
// path that the seeds' tools and Copilot CLI send.
var filePath = []string{"file_path", "notebook_path", "path"}

// The tools several names share. (newStrings is a variable of its own: a
// slice written inside edit would keep the compiler from laying the table
// out as data, and the table would be built at every start.)
var (
	newStrings = []string{"new_string", "new_str"}
	write      = protocol.Tool{Class: hook.ClassWrite, Path: filePath, WholeFile: true}
	edit       = protocol.Tool{Class: hook.ClassWrite, Path: filePath, NewStrings: newStrings}
	exempt     = protocol.Tool{Class: hook.ClassExempt}
)

// Decode turns one Claude Code event into a Call. Every field is optional
// and a field of an unexpected type reads as absent: a hook must not break
// because an agent version changed a shape.
func Decode(ev protocol.Object, event string) (*hook.Call, error) {
	c := protocol.DecodeClaudeShaped(Name, ev, event)
	input := ev["tool_input"]
	Tools().Fill(c, input)
	fillEdits(c, protocol.AsObject(input))
	if c.ToolName == "Task" || c.ToolName == "Agent" {
		c.SubagentType = protocol.AsObject(input).Str("subagent_type")
	}
	resp := ev.Obj("tool_response")
	if resp == nil {
		resp = ev.Obj("tool_result") // Copilot CLI through Claude-format settings
	}
	if len(c.Paths) == 0 {
		// A post event may name its file only in the response.
		if p := resp.Str("filePath"); p != "" {
			c.Paths, c.Unparsed = []string{protocol.NativePath(p)}, ""
		}
	}
	if s, ok := protocol.String(input); ok && c.Class == hook.ClassWrite && len(c.Paths) == 0 {
		// Copilot CLI sends a patch-editing Edit with the bare patch as its input.
		c.Paths, c.Unparsed = protocol.PatchPaths(s)
	}
	DecodeResponse(c, resp)
	if c.Event == hook.PostToolUseFailure {
		c.Failed = true
	}
	return c, nil
}

// fillEdits adds the new text of MultiEdit's edits.
func fillEdits(c *hook.Call, in protocol.Object) {
	for _, e := range in.Objs("edits") {
		if s, ok := e.StrOK("new_string"); ok {
			c.NewStrings = append(c.NewStrings, s)
		}
	}
}

// DecodeResponse reads a Claude-shaped tool response: failure, the original
// file, the content and the structured patch.
func DecodeResponse(c *hook.Call, resp protocol.Object) {
	if resp == nil {
		return
	}
	if ok, isBool := resp.Bool("success"); isBool && !ok {
		c.Failed = true
		if c.Error == "" {
			c.Error = resp.Str("error")
		}
	}
	if rt := resp.Str("result_type"); rt != "" && rt != "success" {
		c.Failed = true
	}
	if s, isStr := resp.StrOK("originalFile"); isStr {
		c.OriginalFile = &s
	}
	if s, isStr := resp.StrOK("content"); isStr {
		c.ResponseContent = &s
	}
	if raw, ok := resp["structuredPatch"]; ok {
		c.Hunks, c.HasHunks = protocol.Hunks(raw)
	}
}

// Sample is a PreToolUse event for an edit of rel (root-relative) in
// session, as the agent sends it: for tests and make bench.
func Sample(root, rel, session, id string) []byte {
	return fmt.Appendf(nil, `{"session_id":%q,"transcript_path":"/home/u/.claude/projects/bench/bench.jsonl","cwd":%q,"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":%q,"old_string":"x","new_string":"x"},"tool_use_id":%q}`, session, root, root+"/"+rel, id)
}
