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

// NPMBinary is the program an npm install's hooks run, relative to the
// project's directory: the main package's own file, which its install step
// makes the native binary. Never npm's link NPMLink: any package's install
// (a package of the agent's with a bin named intenthook) or a program that
// moves the link aside repoints it.
const NPMBinary = NPMPackage + "/bin/" + Program

// NPMPackage is the directory of intenthook's npm package in a project.
const NPMPackage = "node_modules/intenthook"

// NPMLink is where npm links Program in a project that installed it: the
// program of the wiring an older intenthook wrote, which init rewrites to
// NPMBinary and doctor reports.
const NPMLink = "node_modules/.bin/" + Program

// FromRoot is the program words of a hook command for an agent that runs
// its hooks from the session's working directory, which may lie below the
// project's, and names no project directory in their environment (Codex):
// sh finds the workspace root first, the nearest directory from the
// working directory up that holds the catalog (as the hook finds its
// root), and runs that root's NPMBinary, or Program from PATH when there
// is no root or no npm install in it. No other directory's node_modules is
// looked at: a search for the binary itself would meet one planted below
// the root (src/node_modules/…) first. It uses shell built-ins only: no
// process starts but sh.
const FromRoot = "sh -c '" + fromRootScript + "' " + Program

const fromRootScript = `d=$PWD; while [ -n "$d" ] && [ ! -f "$d/.orchestration/active_intents.yaml" ]; do d=${d%/*}; done; [ -n "$d" ] && [ -x "$d/` + NPMBinary + `" ] && exec "$d/` + NPMBinary + `" "$@"; exec ` + Program + ` "$@"`

// LegacySearchUp is the program words an older intenthook wrote for Codex:
// the first NPMLink from the working directory up, which a link planted
// below the root answers. init rewrites it to FromRoot.
const LegacySearchUp = "sh -c '" + legacySearchUpScript + "' " + Program

const legacySearchUpScript = `d=$PWD; while [ -n "$d" ] && [ ! -x "$d/` + NPMLink + `" ]; do d=${d%/*}; done; [ -n "$d" ] || exec ` + Program + ` "$@"; exec "$d/` + NPMLink + `" "$@"`

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
	// FromRoot: the command is FromRoot's, Program is NPMBinary in the
	// workspace root found from the working directory up.
	FromRoot bool
	// SearchUp: the command is LegacySearchUp's, Program is NPMLink, looked
	// for from the working directory up.
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
	if len(words) >= 4 && words[0] == "sh" && words[1] == "-c" && words[3] == Program {
		switch words[2] {
		case fromRootScript:
			return Invocation{Program: NPMBinary, Args: words[4:], FromRoot: true}, true
		case legacySearchUpScript:
			return Invocation{Program: NPMLink, Args: words[4:], SearchUp: true}, true
		}
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

// RunsNPMLink reports whether the invocation runs npm's link NPMLink (by
// any directory, or searched for from the working directory up): the
// wiring an older intenthook wrote for an npm install. Windows' .cmd shim
// is not it.
func (inv Invocation) RunsNPMLink() bool {
	p := strings.ReplaceAll(inv.Program, `\`, "/")
	return inv.SearchUp || p == NPMLink || strings.HasSuffix(p, "/"+NPMLink)
}

// MigrateCommand rewrites a hook command an older intenthook wrote for an
// npm install to run NPMBinary instead of npm's link: its program word
// ending in NPMLink (`"$CLAUDE_PROJECT_DIR"/node_modules/.bin/intenthook
// pre`, `./node_modules/.bin/intenthook pre`), or LegacySearchUp's, which
// becomes FromRoot's. ok is false for any other command, which is left as
// it is.
func MigrateCommand(command string) (string, bool) {
	if rest, ok := strings.CutPrefix(command, LegacySearchUp); ok && (rest == "" || rest[0] == ' ') {
		return FromRoot + rest, true
	}
	i := strings.Index(command, NPMLink)
	if i < 0 {
		return command, false
	}
	head, rest := command[:i], command[i+len(NPMLink):]
	if strings.ContainsAny(head, " \t\n;&|") || (head != "" && !strings.HasSuffix(head, "/")) || (rest != "" && rest[0] != ' ') {
		return command, false
	}
	return head + NPMBinary + rest, true
}
