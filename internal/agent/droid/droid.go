// Package droid speaks Factory Droid's hook protocol (AGENT-PROTOCOLS.md
// §5, verified live against 0.225.2): Claude Code's wire format with its own
// tool names (Create, Edit with old_str/new_str, ApplyPatch, Execute), tool
// responses as JSON-encoded strings, and no ask (Droid defers to its own
// permission mode, so an ask becomes an instructive deny).
package droid

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
const Name = "droid"

// SettingsFile is Droid's project settings file.
const SettingsFile = ".factory/settings.json"

// MCPFile is Droid's project MCP configuration.
const MCPFile = ".factory/mcp.json"

// Governance are Factory Droid's rows of the governance table: the
// descriptor's, reachable without building it.
var Governance = governed.Table{
	// Judged by effect: hooks.hooksDisabled lies in the hooks object.
	{Path: SettingsFile, Use: governed.Wiring, Watch: governed.HookSettings, Hooks: &governed.Hooks{Matchers: []string{preMatcher, postMatcher}}, Reason: "Droid's hooks"},
	{Path: MCPFile, Use: governed.Rules, Reason: "Droid's MCP servers, intenthook's among them"},
}

// Agent describes Factory Droid.
func Agent() protocol.Agent {
	return protocol.Agent{
		Name:           Name,
		Title:          "Factory Droid",
		Verified:       "0.225.2, live (AGENT-PROTOCOLS.md)",
		Decode:         Decode,
		Tools:          Tools(),
		Encode:         Dialect.Encode,
		ProjectDirVars: []string{"FACTORY_PROJECT_DIR", "DROID_PROJECT_DIR", "CLAUDE_PROJECT_DIR"},
		// The only Droid variable droid exec 0.225.2 sets in its Execute
		// tool's environment (seen in make e2e); the TUI was not checked.
		ShellMarkers: []string{"FACTORY_DISABLE_SETTINGS_PERSISTENCE"},
		Settings:     []string{SettingsFile},
		Governance:   Governance,
		Sample:       Sample,
		Wire:         Wire,
		PreTimeout:   &protocol.PreTimeout{File: SettingsFile, Event: "PreToolUse", Key: "timeout", Unit: time.Second, Unset: 60 * time.Second},
		Check:        Check,
		MCP:          protocol.MCPServers(MCPFile),
	}
}

// Dialect is Droid's answer format: Claude Code's, without ask.
var Dialect = protocol.Dialect{Title: "Factory Droid", NoAsk: true}

// Tools is Droid's tool table.
func Tools() protocol.Tools { return tools }

var tools = protocol.Tools{
	{Name: "Create", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"file_path"}, WholeFile: true}},
	{Name: "Edit", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"file_path"}, NewStrings: []string{"new_str"}}},
	{Name: "ApplyPatch", Tool: protocol.Tool{Class: hook.ClassWrite, Patch: "input"}},
	{Name: "Execute", Tool: protocol.Tool{Class: hook.ClassShell}},
	{Name: "Read", Tool: protocol.Tool{Class: hook.ClassRead, Path: []string{"file_path"}}},
	{Name: "LS", Tool: exempt}, {Name: "Grep", Tool: exempt}, {Name: "Glob", Tool: exempt}, {Name: "Task", Tool: exempt}, {Name: "TodoWrite", Tool: exempt}, {Name: "WebSearch", Tool: exempt}, {Name: "FetchUrl", Tool: exempt},
}

var exempt = protocol.Tool{Class: hook.ClassExempt}

// Decode turns one Droid event into a Call.
func Decode(ev protocol.Object, event string) (*hook.Call, error) {
	c := protocol.DecodeClaudeShaped(Name, ev, event)
	// An MCP server's tool is <server>___<tool>.
	c.ToolName = protocol.MCPJoined(c.ToolName, "___")
	Tools().Fill(c, ev["tool_input"])
	// File tools answer with JSON encoded a second time; Obj reads both.
	claude.DecodeResponse(c, ev.Obj("tool_response"))
	return c, nil
}

// Init's tool matchers (Hooks).
const (
	preMatcher  = "Create|Edit|ApplyPatch|Execute|select_active_intent|mcp__.*__select_active_intent|.+___select_active_intent"
	postMatcher = "Create|Edit|ApplyPatch|Execute|Read"
)

// Hooks returns the hooks intenthook needs in Droid (timeouts in seconds).
func Hooks() []hookconfig.Hook {
	args := "--agent " + Name
	return []hookconfig.Hook{
		{Event: "PreToolUse", Matcher: preMatcher, Subcommand: "pre", Args: args, Timeout: 30},
		{Event: "PostToolUse", Matcher: postMatcher, Subcommand: "post", Args: args, Timeout: 30},
		{Event: "SessionStart", Subcommand: "context", Args: args, Timeout: 30},
		{Event: "UserPromptSubmit", Subcommand: "context", Args: args, Timeout: 30},
		{Event: "SessionEnd", Subcommand: "context", Args: args, Timeout: 30},
	}
}

// Wire merges the hooks into .factory/settings.json.
func Wire(root string) (protocol.Change, error) {
	ch, err := protocol.WireJSON(root, SettingsFile, protocol.ForInstall(root, Agent(), Hooks()), "the Factory Droid section of docs/agents.md")
	if err == nil {
		ch.Notes = append(ch.Notes, "Droid's project settings layer is read by `droid exec`; pass --settings "+SettingsFile+" if your version does not load it")
	}
	return ch, err
}

// Check checks the wiring in .factory/settings.json and ~/.factory/settings.json.
func Check(root string, env protocol.CheckEnv) (bool, []protocol.Check) {
	tools := []string{"Create", "Edit", "ApplyPatch", "Execute"}
	return protocol.CheckClaudeShaped(protocol.ClaudeShaped{
		Agent: Agent(), Root: root, Env: env, Project: SettingsFile, User: "~/.factory/settings.json",
		Hooks: Hooks(), Matches: hookconfig.Matches,
		Requirements: []protocol.Requirement{
			{Event: "PreToolUse", Subcommand: "pre", Names: tools},
			{Event: "PostToolUse", Subcommand: "post", Names: append(append([]string{}, tools...), "Read")},
			{Event: "SessionStart", Subcommand: "context"},
		},
	})
}

// Sample is a PreToolUse event for an edit of rel (root-relative) in
// session, as the agent sends it: for tests and make bench.
func Sample(root, rel, session, id string) []byte {
	return fmt.Appendf(nil, `{"session_id":%q,"transcript_path":"/h/.factory/sessions/bench.jsonl","cwd":%q,"permission_mode":"auto-high","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":%q,"old_str":"x","new_str":"x"}}`, session, root, root+"/"+rel)
}
