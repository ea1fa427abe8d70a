// Package vscode speaks the agent hooks of VS Code's own agent (Copilot
// agent mode in VS Code, its Local harness) as documented
// (code.visualstudio.com/docs/agents/reference/hooks-reference) and as
// others captured them from 1.119.0 (git-ai-project/git-ai, and
// microsoft/vscode#315926): Claude Code's events and answer
// (hookSpecificOutput.permissionDecision), flat hook entries with per-OS
// command overrides (windows, linux, osx) and a 30 s timeout, read from
// .github/hooks/*.json in the workspace and ~/.copilot/hooks/*.json for
// the user (among other places), and VS Code's own tool names
// (create_file, replace_string_in_file, apply_patch, run_in_terminal, …).
// Not verified live: VS Code does not run headless here.
package vscode

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/intenthook/intenthook/internal/agent/claude"
	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/hookconfig"
)

// Name is the --agent value.
const Name = "vscode"

// HooksFile is the workspace hooks file init writes: VS Code reads every
// .github/hooks/*.json; Copilot CLI's own file there is intenthook.json.
const HooksFile = ".github/hooks/intenthook-vscode.json"

// UserHooks is where VS Code reads a user's hook files, among other places.
const UserHooks = "~/.copilot/hooks/*.json"

// Governance are VS Code's rows of the governance table: the descriptor's,
// reachable without building it.
var Governance = governed.Table{
	// Judged by effect: a per-OS override added to intenthook's entry, or
	// its timeout changed, is a change of that entry.
	{Path: HooksFile, Use: governed.Rules, Watch: governed.HookSettings, Hooks: &governed.Hooks{}, Reason: "VS Code's agent hooks (read-only in a sandbox with Copilot CLI's .github/hooks)"},
}

// Agent describes VS Code's agent hooks.
func Agent() protocol.Agent {
	return protocol.Agent{
		Name:       Name,
		Title:      "VS Code",
		Verified:   "documented (code.visualstudio.com hooks reference) and others' captures from 1.119.0, not verified live",
		Decode:     Decode,
		Tools:      Tools(),
		Encode:     Dialect.Encode,
		Settings:   []string{HooksFile},
		Governance: Governance,
		Sample:     Sample,
		Wire:       Wire,
		Check:      Check,
		GradeNote:  "VS Code 1.119.0 fires apply_patch's PostToolUse before the file is on disk (microsoft/vscode#315926): post takes the new content from the patch while the file still equals what pre saw",
	}
}

// Dialect is VS Code's answer format: Claude Code's, with a deny as exit 0
// and the shared JSON (hookSpecificOutput.permissionDecision), which carries
// the reason whatever VS Code makes of exit 2, and a violation after a tool
// as {"decision":"block","reason"}.
var Dialect = protocol.Dialect{Title: "VS Code", DenyJSON: true, ViolationJSON: true}

// Tools is VS Code's tool table.
func Tools() protocol.Tools { return tools }

var tools = protocol.Tools{
	{Name: "create_file", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"filePath", "file_path"}, WholeFile: true}},
	{Name: "replace_string_in_file", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"filePath", "file_path"}, NewStrings: []string{"newString"}}},
	// Its files are in a list of replacements: Decode reads them.
	{Name: multiReplace, Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"filePath"}}},
	{Name: "insert_edit_into_file", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"filePath", "file_path"}}},
	{Name: "edit_notebook_file", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"filePath", "file_path"}}},
	{Name: "editFiles", Tool: protocol.Tool{Class: hook.ClassWrite, Paths: "files"}},
	{Name: "apply_patch", Tool: protocol.Tool{Class: hook.ClassWrite, Patch: "input"}},
	{Name: "run_in_terminal", Tool: protocol.Tool{Class: hook.ClassShell}},
	{Name: "read_file", Tool: protocol.Tool{Class: hook.ClassRead, Path: []string{"filePath", "file_path"}}},
	{Name: "file_search", Tool: exempt}, {Name: "grep_search", Tool: exempt}, {Name: "semantic_search", Tool: exempt},
	{Name: "list_dir", Tool: exempt}, {Name: "get_errors", Tool: exempt}, {Name: "fetch_webpage", Tool: exempt},
	{Name: "manage_todo_list", Tool: exempt}, {Name: "get_terminal_output", Tool: exempt},
}

var exempt = protocol.Tool{Class: hook.ClassExempt}

const multiReplace = "multi_replace_string_in_file"

// Decode turns one VS Code event into a Call.
func Decode(ev protocol.Object, event string) (*hook.Call, error) {
	c := protocol.DecodeClaudeShaped(Name, ev, event)
	Tools().Fill(c, ev["tool_input"])
	if c.ToolName == multiReplace {
		// {"replacements": [{"filePath", "oldString", "newString"}, …]}:
		// every replacement's file is a target.
		for _, r := range protocol.AsObject(ev["tool_input"]).Objs("replacements") {
			if p := r.Str("filePath", "file_path"); p != "" {
				c.Paths = append(c.Paths, protocol.NativePath(p))
			} else {
				c.Paths, c.Unparsed = nil, "a replacement names no file"
				break
			}
			if s, ok := r.StrOK("newString"); ok {
				c.NewStrings = append(c.NewStrings, s)
			}
		}
		if len(c.Paths) > 0 {
			c.Unparsed = ""
		}
	}
	claude.DecodeResponse(c, ev.Obj("tool_response"))
	if c.ToolName == "apply_patch" && (c.Event == hook.PostToolUse || c.Event == hook.PostToolUseFailure) {
		// 1.119.0 sends apply_patch's PostToolUse before the file is on
		// disk (microsoft/vscode#315926).
		c.PatchAhead = protocol.AsObject(ev["tool_input"]).Str("input")
	}
	return c, nil
}

// IsTranscript reports whether path is a VS Code agent's transcript
// (…/GitHub.copilot-chat/transcripts/<session>.jsonl, 1.119.0 captured):
// the mark of its events when --agent is left out.
func IsTranscript(path string) bool {
	return strings.Contains(strings.ToLower(filepath.ToSlash(path)), "/github.copilot-chat/")
}

// timeout is VS Code's default hook timeout, in seconds, written out.
const timeout = 30

// Hooks is the wiring init writes: flat entries, each a command handler.
func Hooks() []protocol.FlatHook {
	args := "--agent " + Name
	extra := []protocol.Field{{Key: "type", Value: "command"}, {Key: "timeout", Value: json.Number(strconv.Itoa(timeout))}}
	return []protocol.FlatHook{
		{Event: "PreToolUse", Subcommand: "pre", Args: args, Extra: extra},
		{Event: "PostToolUse", Subcommand: "post", Args: args, Extra: extra},
		{Event: "SessionStart", Subcommand: "context", Args: args, Extra: extra},
		{Event: "UserPromptSubmit", Subcommand: "context", Args: args, Extra: extra},
		{Event: "Stop", Subcommand: "context", Args: args, Extra: extra},
	}
}

// Wire merges the hooks into .github/hooks/intenthook-vscode.json.
func Wire(root string) (protocol.Change, error) {
	ch, err := protocol.WireFlat(root, HooksFile, false, protocol.FlatForInstall(root, Agent(), Hooks()))
	if err == nil {
		ch.Notes = append(ch.Notes,
			"VS Code runs the hooks of every .github/hooks/*.json and of "+UserHooks+" (and Claude Code's settings files): a hook there that answers first can allow what intenthook would deny; VS Code's agent hooks are a preview, wired from its documentation, not verified against a live client",
			"Copilot CLI reads .github/hooks/*.json too: wire it with intenthook init --agent copilot, not through this file")
	}
	return ch, err
}

// Check checks the workspace's hooks file, and that no per-OS override
// replaces intenthook's command on one system.
func Check(root string, env protocol.CheckEnv) (bool, []protocol.Check) {
	configured, checks := protocol.CheckFlat(Agent(), root, HooksFile, Hooks(), env)
	if !configured {
		return false, nil
	}
	return true, append(checks, overridesCheck(root))
}

// overridesCheck fails when an entry that runs intenthook carries a
// windows, linux or osx command: VS Code runs that one instead on that
// system, where doctor's reading of "command" would see intenthook wired.
func overridesCheck(root string) protocol.Check {
	name := Name + " per-OS commands"
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(HooksFile)))
	if errors.Is(err, fs.ErrNotExist) || err != nil {
		return protocol.Check{Status: protocol.Skip, Name: name, Detail: "no " + HooksFile}
	}
	doc, err := hookconfig.Decode(data)
	if err != nil {
		return protocol.Check{Status: protocol.Skip, Name: name, Detail: HooksFile + " is not JSON"}
	}
	if bad := Overridden(doc); len(bad) > 0 {
		return protocol.Check{Status: protocol.Fail, Name: name, Detail: "an override replaces intenthook's command: " + strings.Join(bad, ", "),
			Hint: "remove the windows, linux and osx keys from intenthook's entries in " + HooksFile + " (or make each run the same intenthook command)"}
	}
	return protocol.Check{Status: protocol.Pass, Name: name, Detail: "no windows, linux or osx key replaces intenthook's command in " + HooksFile}
}

// osKeys are the per-OS command overrides of a VS Code hook entry.
var osKeys = []string{"windows", "linux", "osx"}

// Overridden lists "<event>.<os>" for each entry of doc's hooks that runs
// intenthook under "command" and something else under a per-OS key.
func Overridden(doc *hookconfig.Object) []string {
	hv, _ := doc.Get("hooks")
	hooksObj, _ := hv.(*hookconfig.Object)
	if hooksObj == nil {
		return nil
	}
	var out []string
	for _, event := range hooksObj.Keys() {
		v, _ := hooksObj.Get(event)
		list, _ := v.([]any)
		for _, item := range list {
			o, ok := item.(*hookconfig.Object)
			if !ok {
				continue
			}
			cv, _ := o.Get("command")
			cmd, _ := cv.(string)
			inv, parsed := hookconfig.ParseCommand(cmd, nil)
			if !parsed || inv.Subcommand() == "" {
				continue
			}
			for _, k := range osKeys {
				ov, ok := o.Get(k)
				if !ok {
					continue
				}
				s, _ := ov.(string)
				if oinv, ok := hookconfig.ParseCommand(s, nil); !ok || oinv.Subcommand() != inv.Subcommand() || oinv.Program != inv.Program {
					out = append(out, event+"."+k)
				}
			}
		}
	}
	return out
}

// Sample is a PreToolUse event for an edit of rel (root-relative) in
// session, as VS Code sends it: for tests and make bench.
func Sample(root, rel, session, id string) []byte {
	return fmt.Appendf(nil, `{"hook_event_name":"PreToolUse","session_id":%q,"transcript_path":"/h/.config/Code/User/workspaceStorage/0/GitHub.copilot-chat/transcripts/%s.jsonl","cwd":%q,"tool_name":"replace_string_in_file","tool_input":{"filePath":%q,"oldString":"x","newString":"x"},"tool_use_id":%q}`, session, session, root, root+"/"+rel, id)
}
