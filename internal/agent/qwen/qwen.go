// Package qwen speaks Qwen Code's hook protocol (AGENT-PROTOCOLS.md §3,
// verified live against 0.24.4): Claude Code's event names and answers, its
// own tool names, and a UserPromptSubmit resent with an empty prompt before
// every model round trip (answered with nothing, or the context would repeat
// on every turn).
package qwen

import (
	"fmt"
	"time"

	"github.com/intenthook/intenthook/internal/agent/claude"
	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/hookconfig"
)

// Name is the --agent value.
const Name = "qwen"

// SettingsFile is Qwen Code's project settings file.
const SettingsFile = ".qwen/settings.json"

// Governance are Qwen Code's rows of the governance table: the
// descriptor's, reachable without building it.
var Governance = governed.Table{{Path: SettingsFile, Use: governed.Wiring, Watch: governed.HookSettings, Hooks: hookSettings, Reason: "Qwen Code's hooks and MCP servers"}}

// hookSettings is how the guard judges .qwen/settings.json by effect:
// besides the hooks, hooksConfig (enabled, disabled), and what makes Qwen
// Code start a program (mcpServers; tools' discovery and call commands).
var hookSettings = &governed.Hooks{Keys: []string{"hooksConfig", "mcpServers", "tools"}, Matchers: []string{preMatcher, postMatcher, sessionMatcher}}

// Init's matchers (Hooks).
const (
	toolMatcher    = "write_file|edit|notebook_edit|run_shell_command"
	preMatcher     = toolMatcher + "|select_active_intent|mcp__.*__select_active_intent"
	postMatcher    = toolMatcher + "|read_file"
	sessionMatcher = "startup|resume|clear|compact"
)

// Agent describes Qwen Code.
func Agent() protocol.Agent {
	return protocol.Agent{
		Name:           Name,
		Title:          "Qwen Code",
		Verified:       "0.24.4, live (AGENT-PROTOCOLS.md)",
		Decode:         Decode,
		Tools:          Tools(),
		Encode:         Dialect.Encode,
		ProjectDirVars: []string{"QWEN_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"},
		ShellMarkers:   []string{"QWEN_CODE"},
		Settings:       []string{SettingsFile},
		Governance:     Governance,
		Sample:         Sample,
		MCP:            protocol.MCPServers(SettingsFile),
		Wire:           Wire,
		PreTimeout:     &protocol.PreTimeout{File: SettingsFile, Event: "PreToolUse", Key: "timeout", Unit: time.Second, Unset: 60 * time.Second},
		Check:          Check,
	}
}

// Dialect is Claude Code's answer format, a violation after the tool kept
// as exit 2 with stderr (the JSON form is verified under Claude Code only).
var Dialect = protocol.Dialect{Title: "Qwen Code"}

// Tools is Qwen Code's tool table; file paths are absolute.
func Tools() protocol.Tools { return tools }

var tools = protocol.Tools{
	{Name: "write_file", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"file_path"}, WholeFile: true}},
	{Name: "edit", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"file_path"}, NewStrings: []string{"new_string"}}},
	{Name: "notebook_edit", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"notebook_path", "file_path"}}},
	{Name: "run_shell_command", Tool: protocol.Tool{Class: hook.ClassShell, Dir: "directory"}},
	{Name: "read_file", Tool: protocol.Tool{Class: hook.ClassRead, Path: []string{"file_path"}}},
	{Name: "read_many_files", Tool: exempt}, {Name: "list_directory", Tool: exempt}, {Name: "glob", Tool: exempt}, {Name: "grep_search", Tool: exempt},
	{Name: "web_fetch", Tool: exempt}, {Name: "web_search", Tool: exempt}, {Name: "todo_write", Tool: exempt}, {Name: "save_memory", Tool: exempt}, {Name: "agent", Tool: exempt},
}

var exempt = protocol.Tool{Class: hook.ClassExempt}

// Decode turns one Qwen Code event into a Call.
func Decode(ev protocol.Object, event string) (*hook.Call, error) {
	c := protocol.DecodeClaudeShaped(Name, ev, event)
	if c.Event == hook.UserPromptSubmit && c.Prompt == "" {
		c.Repeat = true
	}
	Tools().Fill(c, ev["tool_input"])
	claude.DecodeResponse(c, ev.Obj("tool_response"))
	if c.Event == hook.PostToolUseFailure {
		c.Failed = true
	}
	return c, nil
}

// Hooks returns the hooks intenthook needs in Qwen Code (timeouts in
// seconds; matchers are exact names or aliases).
func Hooks() []hookconfig.Hook {
	args := "--agent " + Name
	return []hookconfig.Hook{
		{Event: "PreToolUse", Matcher: preMatcher, Subcommand: "pre", Args: args, Timeout: 10},
		{Event: "PostToolUse", Matcher: postMatcher, Subcommand: "post", Args: args, Timeout: 10},
		{Event: "PostToolUseFailure", Matcher: postMatcher, Subcommand: "post", Args: args, Timeout: 10},
		{Event: "SessionStart", Matcher: sessionMatcher, Subcommand: "context", Args: args, Timeout: 10},
		{Event: "UserPromptSubmit", Subcommand: "context", Args: args, Timeout: 10},
		{Event: "SessionEnd", Subcommand: "context", Args: args, Timeout: 10},
	}
}

// Wire merges the hooks into .qwen/settings.json.
func Wire(root string) (protocol.Change, error) {
	return protocol.WireJSON(root, SettingsFile, protocol.ForInstall(root, Agent(), Hooks()), "the Qwen Code section of docs/agents.md")
}

// Check checks the wiring in .qwen/settings.json and ~/.qwen/settings.json.
func Check(root string, env protocol.CheckEnv) (bool, []protocol.Check) {
	tools := []string{"write_file", "edit", "run_shell_command"}
	return protocol.CheckClaudeShaped(protocol.ClaudeShaped{
		Agent: Agent(), Root: root, Env: env, Project: SettingsFile, User: "~/.qwen/settings.json",
		Hooks: Hooks(), Matches: hookconfig.Matches,
		Requirements: []protocol.Requirement{
			{Event: "PreToolUse", Subcommand: "pre", Names: tools},
			{Event: "PostToolUse", Subcommand: "post", Names: append(append([]string{}, tools...), "read_file")},
			{Event: "SessionStart", Subcommand: "context", Names: []string{"startup", "resume", "clear", "compact"}},
			{Event: "UserPromptSubmit", Subcommand: "context"},
		},
	})
}

// Sample is a PreToolUse event for an edit of rel (root-relative) in
// session, as the agent sends it: for tests and make bench.
func Sample(root, rel, session, id string) []byte {
	return fmt.Appendf(nil, `{"session_id":%q,"transcript_path":"/h/.qwen/chats/bench.jsonl","cwd":%q,"hook_event_name":"PreToolUse","permission_mode":"yolo","prompt_id":"bench########0","tool_name":"edit","tool_input":{"file_path":%q,"old_string":"x","new_string":"x"},"tool_use_id":%q,"tool_call_id":"call_0"}`, session, root, root+"/"+rel, id)
}
