package claude

import (
	"path/filepath"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/hookconfig"
)

// SettingsFile is Claude Code's shared project settings file, relative to the
// workspace root.
const SettingsFile = ".claude/settings.json"

// LocalSettingsFile is Claude Code's personal project settings file, not
// committed; its hooks run too.
const LocalSettingsFile = ".claude/settings.local.json"

// writeAndShell are the tools whose calls change files.
const writeAndShell = "Write|Edit|MultiEdit|NotebookEdit|Bash|PowerShell"

// Init's matchers (Hooks), which the guard judges a changed matcher by.
const (
	preMatcher     = writeAndShell + "|Task|Agent|select_active_intent|mcp__.*"
	postMatcher    = writeAndShell + "|Read|NotebookRead|mcp__.*"
	sessionMatcher = "startup|resume|clear|compact"
)

// hookSettings is how the guard judges Claude Code's settings files by
// effect: besides the hooks, the switches that turn them all off
// (disableAllHooks, allowManagedHooksOnly), the env block every hook runs
// in (INTENTHOOK_DISABLE, PATH), the sandbox init --sandbox writes, and
// the commands Claude Code runs outside any tool call (statusLine,
// apiKeyHelper). Claude Code writes permissions there itself.
var hookSettings = &governed.Hooks{
	Keys:     []string{"disableAllHooks", "allowManagedHooksOnly", "env", "sandbox", "statusLine", "apiKeyHelper"},
	Matchers: []string{preMatcher, postMatcher, sessionMatcher},
}

// Hooks returns the hooks intenthook needs in Claude Code, in the order and
// with the matchers and timeouts of hooks.example.json (a test keeps the two
// in step).
func Hooks() []hookconfig.Hook {
	return []hookconfig.Hook{
		{Event: "PreToolUse", Matcher: preMatcher, Subcommand: "pre", Timeout: 10},
		{Event: "PostToolUse", Matcher: postMatcher, Subcommand: "post", Timeout: 10},
		{Event: "PostToolUseFailure", Matcher: postMatcher, Subcommand: "post", Timeout: 10},
		{Event: "SessionStart", Matcher: sessionMatcher, Subcommand: "context", Timeout: 10},
		{Event: "UserPromptSubmit", Subcommand: "context", Timeout: 10},
		{Event: "SubagentStart", Subcommand: "context", Timeout: 10},
		// The session's summary; the timeout raises the 1.5 s that
		// SessionEnd hooks share by default.
		{Event: "SessionEnd", Subcommand: "context", Timeout: 10},
	}
}

// requirements: a write or shell call the hooks do not see is a change
// nobody checked.
func requirements() []protocol.Requirement {
	writeTools := []string{"Write", "Edit", "MultiEdit", "NotebookEdit", "Bash"}
	return []protocol.Requirement{
		{Event: "PreToolUse", Subcommand: "pre", Names: writeTools},
		{Event: "PostToolUse", Subcommand: "post", Names: append(append([]string{}, writeTools...), "Read")},
		{Event: "PostToolUseFailure", Subcommand: "post", Names: append(append([]string{}, writeTools...), "Read")},
		{Event: "SessionStart", Subcommand: "context", Names: []string{"startup", "resume", "clear", "compact"}},
		{Event: "UserPromptSubmit", Subcommand: "context"},
	}
}

// Wire merges intenthook's hooks into .claude/settings.json.
func Wire(root string) (protocol.Change, error) {
	return protocol.WireJSON(root, SettingsFile, protocol.ForInstall(root, Agent(), Hooks()), "hooks.example.json")
}

// Check checks the hook wiring across the settings files Claude Code merges
// for the project (the shared and local project files, and the user's), that
// the hook command can run, and that nothing switches the hooks off.
func Check(root string, env protocol.CheckEnv) (bool, []protocol.Check) {
	files := [][2]string{
		{SettingsFile, filepath.Join(root, ".claude", "settings.json")},
		{LocalSettingsFile, filepath.Join(root, ".claude", "settings.local.json")},
	}
	if env.Getenv != nil && env.Getenv("HOME") != "" {
		files = append(files, [2]string{"~/.claude/settings.json", filepath.Join(env.Getenv("HOME"), ".claude", "settings.json")})
	}
	docs, checks := protocol.LoadSettings("claude settings", files)
	unreadable := len(checks) > 0
	jc := protocol.JSONCheck{
		Fix:     "run intenthook init to merge the hooks into " + SettingsFile + " (or copy them from hooks.example.json)",
		Matches: hookconfig.Matches,
		Getenv:  protocol.ProjectEnv(root, Agent().ProjectDirVars, env.Getenv),
		Ours:    Hooks(),
		Source:  "hooks.example.json",
	}
	reqChecks, found := jc.Requirements(docs, requirements())
	checks = append(checks, reqChecks...)
	checks = append(checks, protocol.CheckCommands("hook command", "Claude Code", root, found, env.LookPath))
	if c, off := disabled(docs, env.Getenv); off {
		checks = append(checks, c)
	}
	sandbox, enabled := sandboxCheck(docs, env.SandboxReadOnly)
	checks = append(checks, sandbox)
	if enabled {
		checks = append(checks, sandboxHere(env))
	}
	checks = append(checks, modsCheck(env.Getenv))
	var events []string
	for _, r := range requirements() {
		events = append(events, r.Event)
	}
	return protocol.Wired(docs, events) || unreadable, checks
}

// disabled fails when the hooks are wired but switched off: by
// "disableAllHooks" in a settings file, or by INTENTHOOK_DISABLE=1 in a
// settings file's env block or in this environment.
func disabled(docs []protocol.SettingsDoc, getenv func(string) string) (protocol.Check, bool) {
	const name = "hooks enabled"
	for _, f := range docs {
		if v, ok := f.Doc.Get("disableAllHooks"); ok && v == true {
			return protocol.Check{Status: protocol.Fail, Name: name, Detail: f.Name + ` sets "disableAllHooks": true`, Hint: "remove it: Claude Code runs no hook at all while it is set"}, true
		}
		if e, ok := f.Doc.Get("env"); ok {
			if obj, ok := e.(*hookconfig.Object); ok {
				if v, ok := obj.Get("INTENTHOOK_DISABLE"); ok && v == "1" {
					return protocol.Check{Status: protocol.Fail, Name: name, Detail: f.Name + " sets INTENTHOOK_DISABLE=1 for every hook", Hint: "remove it from the env block: every intenthook hook is a silent no-op while it is set"}, true
				}
			}
		}
	}
	if getenv != nil && getenv("INTENTHOOK_DISABLE") == "1" {
		return protocol.Check{Status: protocol.Fail, Name: name, Detail: "INTENTHOOK_DISABLE=1 in this environment", Hint: "unset it: every intenthook hook is a silent no-op while it is set"}, true
	}
	return protocol.Check{}, false
}
