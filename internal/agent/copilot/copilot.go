// Package copilot speaks GitHub Copilot CLI's hook protocols
// (AGENT-PROTOCOLS.md §4, verified live against 1.0.102). Copilot CLI runs
// two kinds of hooks: its native ones in .github/hooks/*.json (camelCase
// events named by the hook command, sessionId, toolName, toolArgs as an
// object or a bare patch string, answers as top-level permissionDecision
// JSON), and Claude Code's from .claude/settings.json (Claude event names
// and tool names with Copilot's argument names, decoded by package claude,
// where exit 2 loses the reason: a deny is answered with the shared JSON).
package copilot

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/agent/claude"
	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/hookconfig"
)

// Name is the --agent value.
const Name = "copilot"

// HooksFile is the native hooks file init writes.
const HooksFile = ".github/hooks/intenthook.json"

// Variant of a call that came through Claude-format settings.
const claudeShaped = "claude"

// Governance are Copilot CLI's rows of the governance table: the
// descriptor's, reachable without building it.
var Governance = governed.Table{
	// Judged by effect: besides the hooks, the format's version.
	{Path: HooksFile, Use: governed.Rules, Watch: governed.HookSettings, Hooks: &governed.Hooks{Keys: []string{"version"}}, Reason: "Copilot CLI's hooks"},
	{Path: ".mcp.json", Use: governed.Rules, Reason: "the project's MCP servers, intenthook's among them"},
	{Path: ".github/hooks", Use: governed.ReadOnly, Reason: "Copilot CLI's hook files"},
}

// Agent describes Copilot CLI.
func Agent() protocol.Agent {
	return protocol.Agent{
		Name:           Name,
		Title:          "Copilot CLI",
		Verified:       "1.0.102, live (AGENT-PROTOCOLS.md)",
		Decode:         Decode,
		Tools:          Tools(),
		Encode:         Encode,
		ProjectDirVars: nil,
		// Set in the bash tool's environment (1.0.102, seen in make e2e).
		ShellMarkers: []string{"COPILOT_CLI", "COPILOT_AGENT_SESSION_ID"},
		Settings:     []string{HooksFile},
		Governance:   Governance,
		Sample:       Sample,
		Wire:         Wire,
		PreTimeout:   &protocol.PreTimeout{File: HooksFile, Event: "preToolUse", Key: "timeoutSec", Unit: time.Second, Unset: 30 * time.Second},
		Check:        Check,
		MCP:          protocol.MCPServers(".mcp.json"),
	}
}

// Tools is Copilot CLI's native tool table; the toolset depends on the
// model (create/edit for Claude models, apply_patch for GPT ones).
func Tools() protocol.Tools { return tools }

var tools = protocol.Tools{
	{Name: "create", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"path"}, WholeFile: true}},
	{Name: "edit", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"path"}, NewStrings: []string{"new_str"}}},
	{Name: "apply_patch", Tool: protocol.Tool{Class: hook.ClassWrite, PatchInput: true}},
	{Name: "bash", Tool: protocol.Tool{Class: hook.ClassShell}},
	{Name: "view", Tool: protocol.Tool{Class: hook.ClassRead, Path: []string{"path"}}},
	{Name: "rg", Tool: exempt}, {Name: "grep", Tool: exempt}, {Name: "glob", Tool: exempt}, {Name: "task", Tool: exempt}, {Name: "sql", Tool: exempt}, {Name: "web_fetch", Tool: exempt},
	{Name: "report_intent", Tool: exempt}, {Name: "update_todo", Tool: exempt}, {Name: "read_bash", Tool: exempt}, {Name: "write_bash", Tool: exempt}, {Name: "stop_bash", Tool: exempt},
}

var exempt = protocol.Tool{Class: hook.ClassExempt}

// IsClaudeShaped reports whether an event came through Claude-format
// settings: it names its event, Claude Code style.
func IsClaudeShaped(ev protocol.Object) bool { return ev.Has("hook_event_name") }

// Decode turns one Copilot CLI event into a Call. A native event does not
// name itself: the hook command does (pre, post, context), and a context
// event carrying a prompt is a prompt.
func Decode(ev protocol.Object, event string) (*hook.Call, error) {
	if IsClaudeShaped(ev) {
		c, err := claude.Decode(ev, event)
		if c != nil {
			c.Agent, c.Variant = Name, claudeShaped
		}
		return c, err
	}
	c := &hook.Call{
		Agent:          Name,
		Event:          event,
		SessionID:      ev.Str("sessionId"),
		TranscriptPath: ev.Str("transcriptPath"),
		Cwd:            protocol.NativePath(ev.Str("cwd")),
		Source:         ev.Str("source"),
		Prompt:         ev.Str("prompt"),
		// An MCP server's tool is <server>-<tool>.
		ToolName: protocol.MCPJoined(ev.Str("toolName"), "-"),
	}
	if c.Event == hook.SessionStart && ev.Has("prompt") && !ev.Has("source") {
		c.Event = hook.UserPromptSubmit
	}
	// sessionEnd names why the session ended, and nothing a start has.
	if c.Event == hook.SessionStart && ev.Has("reason") && !ev.Has("source") && !ev.Has("prompt") && !ev.Has("initialPrompt") {
		c.Event = hook.SessionEnd
	}
	if c.Source == "new" {
		c.Source = "startup"
	}
	args := ev["toolArgs"]
	if ev.Str("hookName") == "permissionRequest" {
		// Copilot CLI's own permission question (1.0.102, captured live):
		// the call's input is toolInput, and an edit names its file as
		// file_path, with a diff instead of the strings.
		c.Event, args = hook.PermissionRequest, ev["toolInput"]
	}
	Tools().Fill(c, args)
	if c.Event == hook.PermissionRequest && len(c.Paths) == 0 {
		if p := protocol.AsObject(args).Str("file_path"); p != "" {
			c.Paths, c.Unparsed = []string{protocol.NativePath(p)}, ""
		}
	}
	if res := ev.Obj("toolResult"); res != nil {
		if rt := res.Str("resultType"); rt != "" && rt != "success" {
			c.Failed, c.Error = true, res.Str("textResultForLlm")
		}
	}
	return c, nil
}

// native is the answer of a native hook: top-level fields only.
type native struct {
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	AdditionalContext        string `json:"additionalContext,omitempty"`
}

// permission is the answer to Copilot CLI's own permission question
// (permissionRequest): flat, allow or deny (a deny's message is shown as
// "Permission denied by a PermissionRequest hook: …"; checked live on
// 1.0.102); no answer lets Copilot's own rules decide.
type permission struct {
	Behavior string `json:"behavior"`
	Message  string `json:"message,omitempty"`
}

// claudeDialect answers calls that came through Claude-format settings: a
// deny as the shared JSON (exit 2 drops the reason there), no ask (untested
// there), context is not delivered.
var claudeDialect = protocol.Dialect{Title: "Copilot CLI", NoAsk: true, DenyJSON: true}

// Encode answers Copilot CLI in the dialect of the hook that called.
func Encode(c *hook.Call, d hook.Decision, budget int) hook.Answer {
	if c.Variant == claudeShaped {
		return claudeDialect.Encode(c, d, budget)
	}
	a := hook.Answer{}
	if len(d.Notes) > 0 {
		a.Stderr = joinLines(d.Notes)
	}
	if c.Event == hook.PermissionRequest {
		switch d.Verdict {
		case hook.Deny:
			a.Stdout = protocol.JSON(permission{Behavior: "deny", Message: hook.Clip(d.Message, budget)})
		case hook.AllowWithContext:
			a.Stdout = protocol.JSON(permission{Behavior: "allow"})
		}
		return a
	}
	var out native
	switch {
	case d.Verdict == hook.Deny:
		out = native{PermissionDecision: "deny", PermissionDecisionReason: hook.Clip(d.Message, budget)}
	case d.Verdict == hook.Ask:
		out = native{PermissionDecision: "ask", PermissionDecisionReason: hook.Clip(d.Message, budget), AdditionalContext: hook.Clip(d.Context, budget)}
	case d.Violation:
		// After the fact nothing can be blocked: the model reads what to undo.
		out = native{AdditionalContext: hook.Clip(d.Message, budget)}
	case d.Context != "":
		out = native{AdditionalContext: hook.Clip(d.Context, budget)}
	}
	if out != (native{}) {
		a.Stdout = protocol.JSON(out)
	}
	return a
}

func joinLines(ls []string) string { return strings.Join(ls, "\n") + "\n" }

// Wire writes .github/hooks/intenthook.json, a file of intenthook's own:
// an existing one is kept as it is.
func Wire(root string) (protocol.Change, error) { return wire(root, protocol.NPMInstalled(root)) }

// npmBash and npmPowerShell are the programs an npm install's hooks run,
// by a path relative to the working directory each hook names, the
// repository's root (cwd "."), where Copilot CLI loads .github/hooks from:
// the package's own binary (never npm's .bin link, which any package's
// install can repoint). PowerShell runs npm's .cmd shim: on Windows the
// package's bin/ keeps the Node launcher, which only the shim starts.
const (
	npmBash       = "./" + hookconfig.NPMBinary
	npmPowerShell = "./" + hookconfig.NPMLink + ".cmd"
)

func wire(root string, npm bool) (protocol.Change, error) {
	path := filepath.Join(root, filepath.FromSlash(HooksFile))
	if data, err := os.ReadFile(path); err == nil {
		return migrate(path, data)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return protocol.Change{}, err
	}
	doc := &hookconfig.Object{}
	doc.Set("version", jsonNumber(1))
	hooks := &hookconfig.Object{}
	for _, h := range []struct{ event, sub string }{
		{"preToolUse", "pre"}, {"postToolUse", "post"}, {"sessionStart", "context"}, {"userPromptSubmitted", "context"},
		{"sessionEnd", "context"},
	} {
		args := " " + h.sub + " --agent " + Name
		entry := &hookconfig.Object{}
		entry.Set("type", "command")
		if npm {
			entry.Set("bash", npmBash+args)
			entry.Set("powershell", npmPowerShell+args)
			entry.Set("cwd", ".")
		} else {
			entry.Set("bash", protocol.Program+args)
			entry.Set("powershell", protocol.Program+args)
		}
		entry.Set("timeoutSec", jsonNumber(30))
		hooks.Set(h.event, []any{entry})
	}
	doc.Set("hooks", hooks)
	data, err := hookconfig.Encode(doc)
	if err != nil {
		return protocol.Change{}, err
	}
	if err := protocol.WriteFile(path, data); err != nil {
		return protocol.Change{}, err
	}
	keep := "keep intenthook on its PATH"
	if npm {
		keep = "keep the project's npm install in place (npm install)"
	}
	return protocol.Change{Action: protocol.Created, Path: HooksFile, Detail: "preToolUse, postToolUse, sessionStart, userPromptSubmitted, sessionEnd",
		Notes: []string{
			"Copilot CLI loads repository hooks only in a trusted folder (--trust-folder, or COPILOT_ALLOW_ALL=true for -p runs)",
			"Copilot CLI blocks every tool when a hook cannot run: " + keep + " (intenthook doctor checks it)",
		}}, nil
}

// migrate keeps an existing hooks file, but for the bash commands an older
// intenthook wrote for an npm install, which ran npm's link: they are made
// to run the package's binary.
func migrate(path string, data []byte) (protocol.Change, error) {
	doc, err := hookconfig.Decode(data)
	if err != nil {
		return protocol.Change{Action: protocol.Kept, Path: HooksFile, Detail: "exists"}, nil
	}
	migrated := hookconfig.MigrateNPM(doc)
	if len(migrated) == 0 {
		return protocol.Change{Action: protocol.Kept, Path: HooksFile, Detail: "exists"}, nil
	}
	out, err := hookconfig.Encode(doc)
	if err != nil {
		return protocol.Change{}, err
	}
	if err := protocol.WriteFile(path, out); err != nil {
		return protocol.Change{}, err
	}
	return protocol.Change{Action: protocol.Updated, Path: HooksFile, Detail: fmt.Sprintf("rewrote %d hook command(s) from npm's link %s to the package's binary %s", len(migrated), hookconfig.NPMLink, hookconfig.NPMBinary)}, nil
}

// Check checks the native hooks file: every event wired, and the command
// resolving to an executable (a missing binary blocks every tool).
func Check(root string, env protocol.CheckEnv) (bool, []protocol.Check) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(HooksFile)))
	if errors.Is(err, fs.ErrNotExist) {
		// Wired through a plugin only: said, since it governs nothing.
		if c, ok := checkPlugins(root, env.Getenv, false); ok {
			return true, []protocol.Check{c}
		}
		return false, nil
	}
	if err != nil {
		return true, []protocol.Check{{Status: protocol.Fail, Name: "copilot hooks", Detail: err.Error()}}
	}
	doc, err := hookconfig.Decode(data)
	if err != nil {
		return true, []protocol.Check{{Status: protocol.Fail, Name: "copilot hooks", Detail: HooksFile + ": " + err.Error(), Hint: "fix the JSON, or delete it and run intenthook init --agent copilot"}}
	}
	hooksV, _ := doc.Get("hooks")
	hooks, _ := hooksV.(*hookconfig.Object)
	var checks []protocol.Check
	var found []hookconfig.Handler
	for _, e := range []struct{ event, sub string }{{"preToolUse", "pre"}, {"postToolUse", "post"}, {"sessionStart", "context"}} {
		var v any
		if hooks != nil {
			v, _ = hooks.Get(e.event)
		}
		ok := false
		list, _ := v.([]any)
		for _, item := range list {
			o, isObj := item.(*hookconfig.Object)
			if !isObj {
				continue
			}
			cmd, _ := o.Get("bash")
			s, _ := cmd.(string)
			inv, parsed := hookconfig.ParseCommand(s, env.Getenv)
			// A relative program is the hook's working directory's:
			// its cwd, relative to the repository's root.
			if dir, _ := o.Get("cwd"); parsed && strings.ContainsRune(inv.Program, '/') && !filepath.IsAbs(inv.Program) {
				d, _ := dir.(string)
				inv.Program = filepath.ToSlash(filepath.Join(d, inv.Program))
			}
			if parsed && inv.Subcommand() == e.sub {
				ok = true
				found = append(found, hookconfig.Handler{Event: e.event, Command: s, Invocation: inv, Parsed: true})
			}
		}
		if ok {
			checks = append(checks, protocol.Check{Status: protocol.Pass, Name: "copilot hook " + e.event, Detail: "intenthook " + e.sub + " in " + HooksFile})
		} else {
			checks = append(checks, protocol.Check{Status: protocol.Fail, Name: "copilot hook " + e.event, Detail: "no hook runs intenthook " + e.sub, Hint: "delete " + HooksFile + " and run intenthook init --agent copilot"})
		}
	}
	checks = append(checks, protocol.CheckCommands("copilot hook command", "Copilot CLI", root, found, env.LookPath))
	if c, ok := checkPlugins(root, env.Getenv, true); ok {
		checks = append(checks, c)
	}
	return true, append(checks, checkPromptMode(env.Getenv))
}

func jsonNumber(n int) json.Number { return json.Number(strconv.Itoa(n)) }

// Sample is a PreToolUse event for an edit of rel (root-relative) in
// session, as the agent sends it: for tests and make bench.
func Sample(root, rel, session, id string) []byte {
	return fmt.Appendf(nil, `{"sessionId":%q,"timestamp":1795344033266,"cwd":%q,"toolName":"edit","toolArgs":{"path":%q,"old_str":"x","new_str":"x"}}`, session, root, root+"/"+rel)
}
