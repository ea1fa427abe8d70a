// Package hookconfig holds Claude Code's hook settings as intenthook sees
// them: the hooks intenthook wires (the same as hooks.example.json), the
// settings file as an order-keeping JSON document that can be merged without
// losing a key, and Claude Code's matcher semantics for checking that the
// wiring covers the tools it must. It reads and edits documents in memory; it
// does not touch files.
package hookconfig

import (
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// SettingsFile is Claude Code's shared project settings file, relative to the
// workspace root.
const SettingsFile = ".claude/settings.json"

// Program is the hook command's program name, found on PATH: committed
// settings then work for every teammate, wherever the binary is installed.
const Program = "intenthook"

// Hook is one wiring of an intenthook subcommand to a Claude Code event.
type Hook struct {
	Event      string
	Matcher    string // "" for events without matcher support
	Subcommand string // pre, post or context
	Timeout    int    // seconds
}

// Command is the hook's command line.
func (h Hook) Command() string { return Program + " " + h.Subcommand }

// Claude returns the hooks intenthook needs in Claude Code, in the order and
// with the matchers and timeouts of hooks.example.json (a test keeps the two
// in step).
func Claude() []Hook {
	const writeAndShell = "Write|Edit|MultiEdit|NotebookEdit|Bash|PowerShell"
	return []Hook{
		{Event: "PreToolUse", Matcher: writeAndShell + "|select_active_intent|mcp__.*__select_active_intent", Subcommand: "pre", Timeout: 10},
		{Event: "PostToolUse", Matcher: writeAndShell + "|Read|NotebookRead", Subcommand: "post", Timeout: 10},
		{Event: "PostToolUseFailure", Matcher: writeAndShell + "|Read|NotebookRead", Subcommand: "post", Timeout: 10},
		{Event: "SessionStart", Matcher: "startup|resume|clear|compact", Subcommand: "context", Timeout: 10},
		{Event: "UserPromptSubmit", Subcommand: "context", Timeout: 10},
	}
}

// Invocation is a hook command split into its program and arguments.
type Invocation struct {
	Program string   // the first word, expanded ("" when it cannot be)
	Args    []string // the remaining words, expanded
}

// ParseCommand splits a hook command the way the shell Claude Code hands it
// to would: quotes removed, variables (such as $CLAUDE_PROJECT_DIR) expanded
// through getenv. A command that is not one simple command, or whose words
// need more than variable expansion (command substitution, globs), gives ok
// false: intenthook cannot tell what it runs.
func ParseCommand(command string, getenv func(string) string) (inv Invocation, ok bool) {
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil || len(f.Stmts) != 1 {
		return inv, false
	}
	call, isCall := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !isCall || len(call.Args) == 0 {
		return inv, false
	}
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	cfg := &expand.Config{Env: expand.FuncEnviron(getenv)}
	words := make([]string, 0, len(call.Args))
	for _, w := range call.Args {
		s, err := expand.Literal(cfg, w)
		if err != nil {
			return inv, false
		}
		words = append(words, s)
	}
	return Invocation{Program: words[0], Args: words[1:]}, true
}

// Subcommand returns the intenthook subcommand the invocation runs, or ""
// when it does not run intenthook. Global flags before the subcommand
// (--root DIR) are skipped.
func (inv Invocation) Subcommand() string {
	base := filepath.Base(filepath.ToSlash(inv.Program))
	if i := strings.LastIndexByte(base, '\\'); i >= 0 {
		base = base[i+1:]
	}
	if strings.TrimSuffix(base, ".exe") != Program {
		return ""
	}
	for i := 0; i < len(inv.Args); i++ {
		a := inv.Args[i]
		switch {
		case a == "--root":
			i++ // its value
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}
