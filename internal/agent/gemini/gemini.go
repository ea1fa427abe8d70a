// Package gemini speaks Gemini CLI's hook protocol (AGENT-PROTOCOLS.md §1,
// verified live against 0.61.0): Claude-like events renamed (BeforeTool,
// AfterTool, BeforeAgent), its own tool names with paths that may be
// relative, answers read from the top-level decision (Claude Code's
// permissionDecision is ignored), no context before a tool, SessionStart
// matchers compared as exact strings, timeouts in milliseconds.
package gemini

import (
	"fmt"
	"regexp"
	"time"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/hookconfig"
)

// Name is the --agent value.
const Name = "gemini"

// SettingsFile is Gemini CLI's project settings file.
const SettingsFile = ".gemini/settings.json"

// Governance are Gemini CLI's rows of the governance table: the
// descriptor's, reachable without building it.
var Governance = governed.Table{{Path: SettingsFile, Use: governed.Wiring, Watch: governed.HookSettings, Hooks: hookSettings, Reason: "Gemini CLI's hooks and MCP servers"}}

// hookSettings is how the guard judges .gemini/settings.json by effect:
// besides the hooks, hooksConfig (enabled, disabled), and what makes
// Gemini CLI start a program (mcpServers; tools' discovery and call
// commands).
var hookSettings = &governed.Hooks{Keys: []string{"hooksConfig", "mcpServers", "tools"}, Matchers: []string{beforeMatcher, afterMatcher}}

// Init's tool matchers (Hooks).
const (
	beforeMatcher = "^(write_file|replace|run_shell_command|select_active_intent|mcp_.*)$"
	afterMatcher  = "^(write_file|replace|run_shell_command|read_file|mcp_.*)$"
)

// Agent describes Gemini CLI.
func Agent() protocol.Agent {
	return protocol.Agent{
		Name:           Name,
		Title:          "Gemini CLI",
		Verified:       "0.61.0, live (AGENT-PROTOCOLS.md)",
		Decode:         Decode,
		Tools:          Tools(),
		Encode:         Encode,
		ProjectDirVars: []string{"GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"},
		ShellMarkers:   []string{"GEMINI_CLI"},
		Settings:       []string{SettingsFile},
		Governance:     Governance,
		Sample:         Sample,
		MCP:            protocol.MCPServers(SettingsFile),
		Wire:           Wire,
		PreTimeout:     &protocol.PreTimeout{File: SettingsFile, Event: "BeforeTool", Key: "timeout", Unit: time.Millisecond, Unset: 60 * time.Second},
		Check:          Check,
	}
}

// Events maps Gemini CLI's event names to the hook events.
func Events() map[string]string {
	return map[string]string{
		"BeforeTool":   hook.PreToolUse,
		"AfterTool":    hook.PostToolUse,
		"BeforeAgent":  hook.UserPromptSubmit,
		"SessionStart": hook.SessionStart,
		"SessionEnd":   hook.SessionEnd,
	}
}

// Tools is Gemini CLI's tool table.
func Tools() protocol.Tools { return tools }

var tools = protocol.Tools{
	{Name: "write_file", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"file_path"}, WholeFile: true}},
	{Name: "replace", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"file_path"}, NewStrings: []string{"new_string"}}},
	{Name: "run_shell_command", Tool: protocol.Tool{Class: hook.ClassShell, Dir: "dir_path"}},
	{Name: "read_file", Tool: protocol.Tool{Class: hook.ClassRead, Path: []string{"file_path"}}},
	{Name: "read_many_files", Tool: exempt}, {Name: "list_directory", Tool: exempt}, {Name: "glob", Tool: exempt}, {Name: "grep_search", Tool: exempt},
	{Name: "web_fetch", Tool: exempt}, {Name: "google_web_search", Tool: exempt}, {Name: "write_todos", Tool: exempt}, {Name: "save_memory", Tool: exempt},
}

var exempt = protocol.Tool{Class: hook.ClassExempt}

// Decode turns one Gemini CLI event into a Call.
func Decode(ev protocol.Object, event string) (*hook.Call, error) {
	c := protocol.DecodeClaudeShaped(Name, ev, event)
	c.Event, c.ToolName = event, mcpName(ev)
	if e, ok := Events()[ev.Str("hook_event_name")]; ok {
		c.Event = e
	}
	Tools().Fill(c, ev["tool_input"])
	if resp := ev.Obj("tool_response"); resp != nil {
		// The content written can differ from the input (Gemini may
		// correct it): the file on disk is what post hashes.
		if d := resp.Obj("returnDisplay"); d != nil {
			if orig, ok := d.StrOK("originalContent"); ok {
				if isNew, _ := d.Bool("isNewFile"); !isNew {
					c.OriginalFile = &orig
				}
			}
		}
		if e := resp.Str("error"); e != "" {
			c.Failed, c.Error = true, e
		}
	}
	return c, nil
}

// mcpName is the event's tool name, with an MCP tool's given as
// mcp__<server>__<tool> (the form the tool classes read): Gemini CLI names
// it mcp_<server>_<tool>, which cannot be split where a name holds an
// underscore, and says server and tool apart in mcp_context.
func mcpName(ev protocol.Object) string {
	name := ev.Str("tool_name")
	mc := ev.Obj("mcp_context")
	if mc == nil {
		return name
	}
	server, tool := mc.Str("server_name"), mc.Str("tool_name")
	if server == "" || tool == "" {
		return name
	}
	return "mcp__" + server + "__" + tool
}

// answer is Gemini CLI's before-tool JSON: it reads the top-level decision.
type answer struct {
	Decision      string `json:"decision,omitempty"`
	Reason        string `json:"reason,omitempty"`
	SystemMessage string `json:"systemMessage,omitempty"`
}

// dialect is how Gemini CLI reads the rest: exit 2 with the reason on
// stderr and an empty stdout denies (stdout would be read first); context
// goes in hookSpecificOutput under Gemini's event names.
func dialect() protocol.Dialect {
	return protocol.Dialect{Title: "Gemini CLI", Events: map[string]string{
		hook.PreToolUse: "BeforeTool", hook.PostToolUse: "AfterTool", hook.UserPromptSubmit: "BeforeAgent",
	}}
}

// Encode answers Gemini CLI. A before-tool ask is its own decision (a
// confirmation in interactive runs; a headless run ends there); an allow
// carries no context, which Gemini CLI would drop before a tool.
func Encode(c *hook.Call, d hook.Decision, budget int) hook.Answer {
	if c.Event == hook.PreToolUse && d.Verdict == hook.Ask {
		msg := hook.Clip(d.Message, budget)
		return hook.Answer{Stdout: protocol.JSON(answer{Decision: "ask", Reason: msg, SystemMessage: msg})}
	}
	if c.Event == hook.PreToolUse && d.Verdict == hook.AllowWithContext {
		d = hook.Decision{Warning: d.Warning, Notes: d.Notes}
	}
	return dialect().Encode(c, d, budget)
}

// Hooks returns the hooks intenthook needs in Gemini CLI: tool matchers are
// unanchored regular expressions; SessionStart has no matcher, since a
// matcher there is compared as one exact source. Timeouts are in ms.
func Hooks() []hookconfig.Hook {
	args := "--agent " + Name
	return []hookconfig.Hook{
		{Event: "BeforeTool", Matcher: beforeMatcher, Subcommand: "pre", Args: args, Timeout: 10000},
		{Event: "AfterTool", Matcher: afterMatcher, Subcommand: "post", Args: args, Timeout: 10000},
		{Event: "SessionStart", Subcommand: "context", Args: args, Timeout: 10000},
		{Event: "BeforeAgent", Subcommand: "context", Args: args, Timeout: 10000},
		{Event: "SessionEnd", Subcommand: "context", Args: args, Timeout: 10000},
	}
}

// Wire merges the hooks into .gemini/settings.json.
func Wire(root string) (protocol.Change, error) {
	ch, err := protocol.WireJSON(root, SettingsFile, protocol.ForInstall(root, Agent(), Hooks()), "the Gemini CLI section of docs/agents.md")
	if err == nil && ch.Action != protocol.Kept {
		ch.Notes = append(ch.Notes, "Gemini CLI runs project hooks only in a trusted folder: trust it when asked, or set GEMINI_CLI_TRUST_WORKSPACE=true for headless runs")
	}
	return ch, err
}

// Matches applies Gemini CLI's matcher rules: for tool events an unanchored
// regular expression ("" and "*" match all); for SessionStart exact
// equality with the source.
func Matches(event string) func(matcher, name string) bool {
	return func(matcher, name string) bool {
		if matcher == "" || matcher == "*" {
			return true
		}
		if event == "SessionStart" {
			return matcher == name
		}
		re, err := regexp.Compile(matcher)
		return err == nil && re.MatchString(name)
	}
}

// Check checks the wiring in .gemini/settings.json and ~/.gemini/settings.json.
func Check(root string, env protocol.CheckEnv) (bool, []protocol.Check) {
	files := protocol.SettingsPaths(root, SettingsFile, env.Getenv, "~/.gemini/settings.json")
	docs, checks := protocol.LoadSettings("gemini settings", files)
	if !protocol.Wired(docs, []string{"BeforeTool", "AfterTool", "SessionStart", "BeforeAgent"}) {
		return len(checks) > 0, checks
	}
	var found []hookconfig.Handler
	for _, r := range []protocol.Requirement{
		{Event: "BeforeTool", Subcommand: "pre", Names: []string{"write_file", "replace", "run_shell_command"}},
		{Event: "AfterTool", Subcommand: "post", Names: []string{"write_file", "replace", "run_shell_command", "read_file"}},
		{Event: "SessionStart", Subcommand: "context", Names: []string{"startup", "resume", "clear"}},
		{Event: "BeforeAgent", Subcommand: "context"},
	} {
		jc := protocol.JSONCheck{Agent: Name, Fix: "run intenthook init --agent gemini", Matches: Matches(r.Event),
			Getenv: protocol.ProjectEnv(root, Agent().ProjectDirVars, env.Getenv), Ours: Hooks()}
		cs, hs := jc.Requirements(docs, []protocol.Requirement{r})
		checks = append(checks, cs...)
		found = append(found, hs...)
	}
	checks = append(checks, protocol.CheckCommands(Name+" hook command", "Gemini CLI", root, found, env.LookPath))
	return true, checks
}

// Sample is a PreToolUse event for an edit of rel (root-relative) in
// session, as the agent sends it: for tests and make bench.
func Sample(root, rel, session, id string) []byte {
	return fmt.Appendf(nil, `{"session_id":%q,"transcript_path":"/h/.gemini/tmp/chats/bench.jsonl","cwd":%q,"hook_event_name":"BeforeTool","timestamp":"2026-11-22T10:30:53.930Z","tool_name":"replace","tool_input":{"file_path":%q,"old_string":"x","new_string":"x"}}`, session, root, root+"/"+rel)
}
