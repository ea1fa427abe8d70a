// Package auggie speaks Auggie's hook protocol (AGENT-PROTOCOLS.md §6,
// verified live against 0.36.0 with a mock tenant): Claude-shaped settings,
// events keyed by conversation_id with the workspace in workspace_roots,
// tool paths relative to the workspace, answers that ignore ask (an ask
// becomes an instructive deny) and drop session and prompt context. Hooks
// run only when the Augment tenant enables them.
package auggie

import (
	"fmt"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/hookconfig"
)

// Name is the --agent value.
const Name = "auggie"

// SettingsFile is Auggie's project settings file.
const SettingsFile = ".augment/settings.json"

// Governance are Auggie's rows of the governance table: the
// descriptor's, reachable without building it.
var Governance = governed.Table{{Path: SettingsFile, Use: governed.Wiring, Watch: governed.HookSettings, Hooks: hookSettings, Reason: "Auggie's hooks and MCP servers"}}

// hookSettings is how the guard judges .augment/settings.json by effect:
// besides the hooks (Auggie has no local switch), its MCP servers.
var hookSettings = &governed.Hooks{Keys: []string{"mcpServers"}, Matchers: []string{preMatcher, postMatcher, mcpMatcher}}

// Init's matchers (Hooks).
const (
	toolMatcher = "save-file|str-replace-editor|remove-files|apply_patch|launch-process"
	preMatcher  = toolMatcher + "|select_active_intent|mcp__.*__select_active_intent"
	postMatcher = toolMatcher + "|view"
	mcpMatcher  = "mcp:.*"
)

// Agent describes Auggie.
func Agent() protocol.Agent {
	return protocol.Agent{
		Name:           Name,
		Title:          "Auggie",
		Verified:       "0.36.0, live with a mock tenant (make e2e)",
		Decode:         Decode,
		Tools:          Tools(),
		Encode:         Dialect.Encode,
		ProjectDirVars: []string{"AUGMENT_PROJECT_DIR"},
		// Set in launch-process's environment (0.36.0, seen in make e2e).
		ShellMarkers: []string{"AUGMENT_AGENT"},
		Settings:     []string{SettingsFile},
		Governance:   Governance,
		Sample:       Sample,
		Wire:         Wire,
		Check:        Check,
		MCP:          protocol.MCPServers(SettingsFile),
	}
}

// Dialect is Auggie's answer format: Claude Code's, without ask.
var Dialect = protocol.Dialect{Title: "Auggie", NoAsk: true}

// Events maps Auggie's event names to the hook events.
func Events() map[string]string {
	return map[string]string{"PromptSubmit": hook.UserPromptSubmit}
}

// Tools is Auggie's tool table.
func Tools() protocol.Tools { return tools }

var tools = protocol.Tools{
	{Name: "save-file", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"path"}, WholeFile: true}},
	{Name: "str-replace-editor", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"path"}}},
	{Name: "remove-files", Tool: protocol.Tool{Class: hook.ClassWrite, Paths: "file_paths"}},
	{Name: "apply_patch", Tool: protocol.Tool{Class: hook.ClassWrite, Patch: "input"}},
	{Name: "launch-process", Tool: protocol.Tool{Class: hook.ClassShell, Dir: "cwd"}},
	{Name: "view", Tool: protocol.Tool{Class: hook.ClassRead, Path: []string{"path"}}},
	{Name: "codebase-retrieval", Tool: exempt}, {Name: "web-search", Tool: exempt}, {Name: "web-fetch", Tool: exempt}, {Name: "read-process", Tool: exempt},
	{Name: "list-processes", Tool: exempt}, {Name: "kill-process", Tool: exempt}, {Name: "write-process", Tool: exempt},
}

var exempt = protocol.Tool{Class: hook.ClassExempt}

// Decode turns one Auggie event into a Call. The session is the
// conversation, the working directory the first workspace root (relative
// tool paths are relative to it); there is no transcript path.
func Decode(ev protocol.Object, event string) (*hook.Call, error) {
	c := &hook.Call{
		Agent:     Name,
		Event:     ev.Str("hook_event_name"),
		SessionID: ev.Str("conversation_id"),
		Prompt:    ev.Str("user_prompt"),
		ToolName:  ev.Str("tool_name"),
	}
	if mcp, _ := ev.Bool("is_mcp_tool"); mcp {
		// An MCP server's tool is <tool>_<server>.
		c.ToolName = protocol.MCPJoinedToolFirst(c.ToolName, "_")
	}
	if roots := ev.Strs("workspace_roots"); len(roots) > 0 {
		c.Cwd = protocol.NativePath(roots[0])
	}
	if e, ok := Events()[c.Event]; ok {
		c.Event = e
	}
	if c.Event == "" {
		c.Event = event
	}
	Tools().Fill(c, ev["tool_input"])
	if e := ev.Str("tool_error"); e != "" {
		c.Failed, c.Error = true, e
	}
	return c, nil
}

// Hooks returns the hooks intenthook needs in Auggie (timeouts in ms). No
// session or prompt context: Auggie discards it.
func Hooks() []hookconfig.Hook {
	args := "--agent " + Name
	return []hookconfig.Hook{
		{Event: "PreToolUse", Matcher: preMatcher, Subcommand: "pre", Args: args, Timeout: 30000},
		// Auggie matches an MCP server's tools only with an mcp: matcher:
		// intenthook's select tool, and other servers' write tools.
		{Event: "PreToolUse", Matcher: mcpMatcher, Subcommand: "pre", Args: args, Timeout: 30000},
		{Event: "PostToolUse", Matcher: postMatcher, Subcommand: "post", Args: args, Timeout: 30000},
		{Event: "PostToolUse", Matcher: mcpMatcher, Subcommand: "post", Args: args, Timeout: 30000},
	}
}

// Wire merges the hooks into .augment/settings.json.
func Wire(root string) (protocol.Change, error) {
	ch, err := protocol.WireJSON(root, SettingsFile, protocol.ForInstall(root, Agent(), Hooks()), "the Auggie section of docs/agents.md")
	if err == nil {
		ch.Notes = append(ch.Notes, "Auggie runs hooks only when the Augment tenant enables them (a server-side feature flag); nothing says so when it does not")
	}
	return ch, err
}

// Check checks the wiring in .augment/settings.json and ~/.augment/settings.json.
func Check(root string, env protocol.CheckEnv) (bool, []protocol.Check) {
	tools := []string{"save-file", "str-replace-editor", "remove-files", "apply_patch", "launch-process"}
	configured, checks := protocol.CheckClaudeShaped(protocol.ClaudeShaped{
		Agent: Agent(), Root: root, Env: env, Project: SettingsFile, User: "~/.augment/settings.json",
		Hooks: Hooks(), Matches: hookconfig.Matches,
		Requirements: []protocol.Requirement{
			{Event: "PreToolUse", Subcommand: "pre", Names: tools},
			{Event: "PostToolUse", Subcommand: "post", Names: append(append([]string{}, tools...), "view")},
		},
	})
	if configured {
		checks = append(checks, protocol.Check{Status: protocol.Warn, Name: "auggie hooks enabled", Detail: "cannot be seen from files: Auggie runs hooks only when the Augment tenant's feature flag enables them", Hint: "ask your Augment admin whether hooks are enabled for the tenant"})
	}
	return configured, checks
}

// Sample is a PreToolUse event for an edit of rel (root-relative) in
// session, as the agent sends it: for tests and make bench.
func Sample(root, rel, session, id string) []byte {
	return fmt.Appendf(nil, `{"hook_event_name":"PreToolUse","conversation_id":%q,"workspace_roots":[%q],"tool_name":"str-replace-editor","tool_input":{"command":"str_replace","path":%q},"tool_output":"[undefined]","tool_error":null,"is_mcp_tool":false}`, session, root, rel)
}
