// Package cline speaks Cline's hook protocol (PROTOCOLS.md §2.7, and the
// Cline 3 CLI as run live): an executable per event in .clinerules/hooks/
// (PreToolUse, PostToolUse, TaskStart, …), reading {hookName, taskId,
// workspaceRoots, preToolUse: {toolName, parameters}} — Cline 3.0.65 names
// the hooks tool_call, tool_result, agent_start and adds the call itself as
// tool_call/tool_result {name, input} — and answering
// {"cancel": …, "errorMessage": …, "contextModification": …}.
package cline

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/hookconfig"
	"github.com/intenthook/intenthook/internal/state"
)

// Name is the --agent value.
const Name = "cline"

// HooksDir holds Cline's project hooks, one executable per event.
const HooksDir = ".clinerules/hooks"

// Governance are Cline's rows of the governance table: the
// descriptor's, reachable without building it.
var Governance = governed.Table{
	{Path: HooksDir + "/PreToolUse", Use: governed.Rules, Reason: "Cline's hook scripts"},
	{Path: HooksDir + "/PostToolUse", Use: governed.Rules, Reason: "Cline's hook scripts"},
	{Path: HooksDir + "/TaskStart", Use: governed.Rules, Reason: "Cline's hook scripts"},
	{Path: HooksDir + "/TaskResume", Use: governed.Rules, Reason: "Cline's hook scripts"},
	{Path: HooksDir + "/UserPromptSubmit", Use: governed.Rules, Reason: "Cline's hook scripts"},
	{Path: PluginFile, Use: governed.Rules, Reason: "Cline 3's plugin, which asks intenthook"},
	{Path: HooksDir, Use: governed.ReadOnly, Reason: "Cline's hook scripts"},
}

// Agent describes Cline.
func Agent() protocol.Agent {
	return protocol.Agent{
		Name:     Name,
		Title:    "Cline",
		Verified: "3.0.65 CLI, live (make e2e): a deny stops the run",
		// The only variable Cline 3.0.65's run_commands adds (env run
		// through it under make e2e).
		ShellMarkers: []string{"CLINE_CONNECTOR_CLI_LAUNCH"},
		Decode:       Decode,
		Tools:        Tools(),
		Encode:       Encode,
		Settings:     []string{HooksDir + "/PreToolUse", HooksDir + "/PostToolUse", HooksDir + "/TaskStart", HooksDir + "/UserPromptSubmit", PluginFile},
		Governance:   Governance,
		Sample:       Sample,
		Wire:         Wire,
		Check:        Check,
	}
}

// Events maps Cline's hook names to the hook events.
func Events() map[string]string {
	return map[string]string{
		"PreToolUse":       hook.PreToolUse,
		"PostToolUse":      hook.PostToolUse,
		"TaskStart":        hook.SessionStart,
		"TaskResume":       hook.SessionStart,
		"UserPromptSubmit": hook.UserPromptSubmit,
		// Cline 3.0.65 (the SDK CLI), for the same files.
		"tool_call":     hook.PreToolUse,
		"tool_result":   hook.PostToolUse,
		"agent_start":   hook.SessionStart,
		"agent_resume":  hook.SessionStart,
		"prompt_submit": hook.UserPromptSubmit,
		// intenthook's own plugin (plugin.go), once loaded.
		pluginStart: hook.PluginStart,
	}
}

// Tools is Cline's tool table.
func Tools() protocol.Tools { return tools }

var tools = protocol.Tools{
	{Name: "write_to_file", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"path"}, WholeFile: true}},
	{Name: "replace_in_file", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"path"}}},
	{Name: "execute_command", Tool: protocol.Tool{Class: hook.ClassShell}},
	{Name: "read_file", Tool: protocol.Tool{Class: hook.ClassRead, Path: []string{"path"}}},
	{Name: "list_files", Tool: exempt}, {Name: "search_files", Tool: exempt}, {Name: "list_code_definition_names", Tool: exempt},
	{Name: "ask_followup_question", Tool: exempt}, {Name: "attempt_completion", Tool: exempt}, {Name: "new_task", Tool: exempt}, {Name: "plan_mode_respond", Tool: exempt},
	{Name: "browser_action", Tool: exempt}, {Name: "web_fetch", Tool: exempt}, {Name: "access_mcp_resource", Tool: exempt},
	// Cline 3.0.65's tools: editor creates, replaces or inserts;
	// run_commands and read_files take lists (see Decode).
	{Name: "editor", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"path"}, NewStrings: []string{"new_text"}}},
	{Name: "run_commands", Tool: protocol.Tool{Class: hook.ClassShell, Command: "commands"}},
	{Name: "read_files", Tool: protocol.Tool{Class: hook.ClassRead}},
	{Name: "search_codebase", Tool: exempt}, {Name: "fetch_web_content", Tool: exempt}, {Name: "ask_question", Tool: exempt},
}

var exempt = protocol.Tool{Class: hook.ClassExempt}

// Decode turns one Cline hook input into a Call.
func Decode(ev protocol.Object, event string) (*hook.Call, error) {
	name := ev.Str("hookName")
	c := &hook.Call{Agent: Name, Event: event, SessionID: ev.Str("taskId")}
	if e, ok := Events()[name]; ok {
		c.Event = e
	}
	if roots := ev.Strs("workspaceRoots"); len(roots) > 0 {
		c.Cwd = protocol.NativePath(roots[0])
	}
	if name == "TaskResume" || name == "agent_resume" {
		c.Source = "resume"
	}
	// The plugin's calls name the session it announced itself under; a
	// hook file's tool_call (Cline 3) is left to the plugin once it has,
	// and its tool_result tells whether the plugin gave the deny.
	if root := ev.Obj("sessionContext").Str("rootSessionId"); root != "" && (name == pluginStart || (name == "tool_call" || name == "tool_result") && !ev.Has("plugin")) {
		c.Plugin = root
	}
	if name == pluginStart {
		c.PluginProcess, _ = strconv.Atoi(ev.Str("pid"))
	}
	var tool, call protocol.Object
	switch c.Event {
	case hook.PreToolUse:
		tool, call = ev.Obj("preToolUse"), ev.Obj("tool_call")
	case hook.PostToolUse:
		tool, call = ev.Obj("postToolUse"), ev.Obj("tool_result")
		if ok, isBool := tool.Bool("success"); isBool && !ok {
			c.Failed = true
		}
	case hook.UserPromptSubmit:
		c.Prompt = ev.Obj("userPromptSubmit").Str("prompt")
	}
	if tool == nil && call == nil {
		return c, nil
	}
	// Cline 3 hands the call's input as it is in tool_call.input; its
	// preToolUse.parameters carries lists JSON-encoded into strings.
	c.ToolName = tool.Str("toolName")
	// Cline 3 names each call: the same id in its tool_call and its
	// tool_result, which pairs a post with what its pre left.
	c.ToolUseID = call.Str("id")
	input := tool["parameters"]
	if call.Has("input") {
		c.ToolName, input = call.Str("name"), call["input"]
	}
	Tools().Fill(c, input)
	in := protocol.AsObject(input)
	switch c.ToolName {
	case "run_commands":
		c.Command = commands(in.Strs("commands"))
	case "read_files":
		for _, f := range in.Objs("files") {
			if p := f.Str("path"); p != "" {
				c.Paths = append(c.Paths, protocol.NativePath(p))
			}
		}
	}
	return c, nil
}

// commands is run_commands' list as one script: each command runs on its
// own from the workspace root, so each is a subshell (a cd in one does not
// move the next).
func commands(list []string) string {
	if len(list) == 1 {
		return list[0]
	}
	var b strings.Builder
	for i, cmd := range list {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("(" + cmd + "\n)")
	}
	return b.String()
}

type answer struct {
	Cancel              bool   `json:"cancel"`
	ErrorMessage        string `json:"errorMessage,omitempty"`
	ContextModification string `json:"contextModification,omitempty"`
}

// allowed is the answer to an allowed call with no context, the answer to
// nearly every call, written out: encoding/json's reflection over answer
// would cost the hook's path more than the rest of the answer (TestAllowed
// holds it to the encoder's).
const allowed = `{"cancel":false}` + "\n"

// Encode answers Cline: a deny cancels with the reason; context goes in
// contextModification. There is no ask: it becomes an instructive deny.
func Encode(c *hook.Call, d hook.Decision, budget int) hook.Answer {
	if d.Verdict == hook.Ask {
		d = protocol.AskAsDeny(d, "Cline")
	}
	a := hook.Answer{}
	switch {
	case d.Verdict == hook.Deny:
		a.Stdout = protocol.JSON(answer{Cancel: true, ErrorMessage: hook.Clip(d.Message, budget)})
	case d.Violation:
		a.Stdout = protocol.JSON(answer{ContextModification: hook.Clip(d.Message, budget)})
	case d.Context == "":
		a.Stdout = allowed
	default:
		a.Stdout = protocol.JSON(answer{ContextModification: hook.Clip(d.Context, budget)})
	}
	if len(d.Notes) > 0 {
		a.Stderr = strings.Join(d.Notes, "\n") + "\n"
	}
	return a
}

// script is the executable for one event. An npm install's runs the
// package's own binary (never npm's .bin link), found from the script's
// own path (Cline runs it by its path in the workspace's HooksDir), with no
// process but sh.
func script(sub string, npm bool) []byte {
	if npm {
		return npmScript(hookconfig.NPMBinary, sub)
	}
	return []byte("#!/bin/sh\n# Written by intenthook init --agent cline.\nexec " + protocol.Program + " " + sub + " --agent " + Name + "\n")
}

func npmScript(program, sub string) []byte {
	return []byte("#!/bin/sh\n# Written by intenthook init --agent cline: the project's intenthook, two directories up from this file.\nexec \"${0%/*}\"/../../" + program + " " + sub + " --agent " + Name + "\n")
}

// legacyScript is the npm install's script an older intenthook wrote,
// which ran npm's link: init rewrites it.
func legacyScript(sub string) []byte { return npmScript(hookconfig.NPMLink, sub) }

// program is the file a hook script written by init runs (see script):
// "" for a script of another's.
func program(root string, data []byte, sub string) string {
	switch string(data) {
	case string(script(sub, true)):
		return filepath.Join(root, filepath.FromSlash(hookconfig.NPMBinary))
	case string(legacyScript(sub)):
		return filepath.Join(root, filepath.FromSlash(hookconfig.NPMLink))
	case string(script(sub, false)):
		return protocol.Program
	}
	return ""
}

var scripts = []struct{ event, sub string }{
	{"PreToolUse", "pre"}, {"PostToolUse", "post"}, {"TaskStart", "context"}, {"TaskResume", "context"}, {"UserPromptSubmit", "context"},
}

// Wire writes one executable per event; an existing hook of another's is
// kept and reported.
func Wire(root string) (protocol.Change, error) { return wire(root, protocol.NPMInstalled(root)) }

func wire(root string, npm bool) (protocol.Change, error) {
	var written, others []string
	for _, s := range scripts {
		path := filepath.Join(root, filepath.FromSlash(HooksDir), s.event)
		data, err := os.ReadFile(path)
		switch {
		case err == nil && string(data) == string(legacyScript(s.sub)):
			if err := state.WriteFile(path, script(s.sub, true), 0o755, true); err != nil {
				return protocol.Change{}, err
			}
			written = append(written, s.event+" (from npm's link to the package's binary)")
			continue
		case err == nil && strings.Contains(string(data), protocol.Program+" "+s.sub):
			continue
		case err == nil:
			others = append(others, s.event)
			continue
		case !errors.Is(err, fs.ErrNotExist):
			return protocol.Change{}, err
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return protocol.Change{}, err
		}
		if err := state.WriteFile(path, script(s.sub, npm), 0o755, true); err != nil {
			return protocol.Change{}, err
		}
		written = append(written, s.event)
	}
	pluginWritten, pluginDiffers, err := writePlugin(root, npm)
	if err != nil {
		return protocol.Change{}, err
	}
	if len(others) > 0 {
		return protocol.Change{}, &protocol.Conflict{Path: HooksDir, Reason: "hooks of another's exist: " + strings.Join(others, ", "),
			Hint: "add `" + protocol.Program + " pre|post|context --agent cline` to them by hand"}
	}
	if pluginWritten {
		written = append(written, "the plugin "+PluginFile)
	}
	var notes []string
	if pluginDiffers {
		notes = append(notes, PluginFile+" exists and differs from the one this version writes; delete it and run intenthook init --agent cline to get the current one")
	}
	if len(written) == 0 {
		return protocol.Change{Action: protocol.Kept, Path: HooksDir, Detail: "the hooks and the plugin are in place", Notes: notes}, nil
	}
	notes = append(notes, "Cline 3 loads the plugin, which refuses one tool call on a deny (its reason goes to the model); where the plugin is not loaded, a deny stops the whole task. Enable hooks in Cline's settings if your version asks for it")
	return protocol.Change{Action: protocol.Created, Path: HooksDir, Detail: strings.Join(written, ", "), Notes: notes}, nil
}

// Check checks that each event's executable runs intenthook.
func Check(root string, env protocol.CheckEnv) (bool, []protocol.Check) {
	dir := filepath.Join(root, filepath.FromSlash(HooksDir))
	if _, err := os.Stat(dir); err != nil {
		return false, nil
	}
	var checks []protocol.Check
	var runs []hookconfig.Handler
	configured := false
	for _, s := range scripts[:3] {
		path := filepath.Join(dir, s.event)
		data, err := os.ReadFile(path)
		name := "cline hook " + s.event
		st, statErr := os.Stat(path)
		switch {
		case err != nil:
			checks = append(checks, protocol.Check{Status: protocol.Fail, Name: name, Detail: "missing", Hint: "run intenthook init --agent cline"})
		case !strings.Contains(string(data), protocol.Program+" "+s.sub):
			checks = append(checks, protocol.Check{Status: protocol.Fail, Name: name, Detail: "does not run " + protocol.Program + " " + s.sub, Hint: "add it to the hook"})
		case statErr == nil && st.Mode().Perm()&0o111 == 0:
			configured = true
			checks = append(checks, protocol.Check{Status: protocol.Fail, Name: name, Detail: "not executable", Hint: "chmod +x " + HooksDir + "/" + s.event})
		default:
			configured = true
			checks = append(checks, protocol.Check{Status: protocol.Pass, Name: name, Detail: protocol.Program + " " + s.sub})
		}
		if p := program(root, data, s.sub); err == nil && p != "" {
			runs = append(runs, hookconfig.Handler{Invocation: hookconfig.Invocation{Program: p, Args: []string{s.sub}}, Parsed: true})
		}
	}
	if !configured {
		return false, nil
	}
	plugin, pluginProgram := checkPlugin(root)
	checks = append(checks, plugin)
	if pluginProgram != "" {
		runs = append(runs, hookconfig.Handler{Invocation: hookconfig.Invocation{Program: pluginProgram, Args: []string{"pre"}}, Parsed: true})
	}
	if len(runs) == 0 {
		// Scripts of another's that run intenthook: from PATH, most likely.
		runs = append(runs, hookconfig.Handler{Invocation: hookconfig.Invocation{Program: protocol.Program, Args: []string{"pre"}}, Parsed: true})
	}
	return true, append(checks, protocol.CheckCommands("cline hook command", "Cline", root, runs, env.LookPath))
}

// Sample is a PreToolUse event for an edit of rel (root-relative) in
// session, as the agent sends it: for tests and make bench.
func Sample(root, rel, session, id string) []byte {
	return fmt.Appendf(nil, `{"clineVersion":"3.30.0","hookName":"PreToolUse","timestamp":"2026-11-22T10:00:00Z","taskId":%q,"workspaceRoots":[%q],"preToolUse":{"toolName":"replace_in_file","parameters":{"path":%q,"diff":"x"}}}`, session, root, rel)
}
