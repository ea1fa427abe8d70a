// Package hookconfig holds Claude-shaped hook settings (the shape Claude
// Code set, and Gemini CLI, Qwen Code, Codex, Factory Droid and Auggie read
// too) as intenthook sees them: the settings file as an order-keeping JSON
// document that can be merged without losing a key, hook command lines, and
// Claude Code's matcher semantics for checking that the wiring covers the
// tools it must. Which hooks each agent needs is the agent packages'
// business. It reads and edits documents in memory; it does not touch files.
package hookconfig

import (
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Program is the hook command's program name, found on PATH: committed
// settings then work for every teammate, wherever the binary is installed.
const Program = "intenthook"

// NPMLink is where npm links Program in a project that installed it,
// relative to the project's directory.
const NPMLink = "node_modules/.bin/" + Program

// SearchUp is the program words of a hook command for an agent that runs its
// hooks from the session's working directory, which may lie below the
// project's, and names no project directory in their environment (Codex):
// sh looks for NPMLink from the working directory up and runs the first it
// finds with the command's arguments, or Program from PATH when no directory
// has one. It uses shell built-ins only: no process starts but sh.
const SearchUp = "sh -c '" + searchUpScript + "' " + Program

const searchUpScript = `d=$PWD; while [ -n "$d" ] && [ ! -x "$d/` + NPMLink + `" ]; do d=${d%/*}; done; [ -n "$d" ] || exec ` + Program + ` "$@"; exec "$d/` + NPMLink + `" "$@"`

// Hook is one wiring of an intenthook subcommand to an event, in the
// Claude-shaped settings most agents read.
type Hook struct {
	Event      string
	Matcher    string // "" for events without matcher support
	Subcommand string // pre, post or context
	Args       string // after the subcommand: "--agent gemini"
	Timeout    int    // in the agent's unit (seconds, or milliseconds)
	// Program is the command's program word, as written in the settings
	// ("" for Program, found on PATH).
	Program string
}

// Command is the hook's command line.
func (h Hook) Command() string {
	prog := h.Program
	if prog == "" {
		prog = Program
	}
	if h.Args == "" {
		return prog + " " + h.Subcommand
	}
	return prog + " " + h.Subcommand + " " + h.Args
}

// Invocation is a hook command split into its program and arguments.
type Invocation struct {
	Program string   // the first word, expanded ("" when it cannot be)
	Args    []string // the remaining words, expanded
	// SearchUp: the command is SearchUp's, Program is NPMLink, looked for
	// from the working directory up.
	SearchUp bool
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
	words := make([]string, 0, len(call.Args))
	for _, w := range call.Args {
		var b strings.Builder
		if !expandWord(&b, w.Parts, getenv) {
			return inv, false
		}
		words = append(words, b.String())
	}
	if len(words) >= 4 && words[0] == "sh" && words[1] == "-c" && words[2] == searchUpScript && words[3] == Program {
		return Invocation{Program: NPMLink, Args: words[4:], SearchUp: true}, true
	}
	return Invocation{Program: words[0], Args: words[1:]}, true
}

// expandWord writes a word with its quotes removed and its plain variables
// ($VAR, ${VAR}) expanded; anything more (substitutions, globs, parameter
// operations, ~) is not expanded here and gives false. (The shell package's
// own expander pulls in more start-up cost than a hook command needs.)
func expandWord(b *strings.Builder, parts []syntax.WordPart, getenv func(string) string) bool {
	for _, part := range parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[~") {
				return false
			}
			// Backslashes stay: hook commands on Windows name paths with them.
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if !expandWord(b, p.Parts, getenv) {
				return false
			}
		case *syntax.ParamExp:
			if p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Names != 0 || p.Exp != nil {
				return false
			}
			b.WriteString(getenv(p.Param.Value))
		default:
			return false
		}
	}
	return true
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
