// Package shell reads a shell command line the way the hook must before it runs: it finds the files
// the command writes, deletes and shows, the calls that are destructive, the reasons it cannot be
// analysed, and the calls of intenthook itself (SPEC §8).
//
// It parses with mvdan.cc/sh (Bash dialect) and never runs anything. It does not resolve paths
// against a working directory, match scopes or decide: the gate does that with an Analysis. What
// the text cannot tell (a script file's contents, targets that arrive on stdin) is reported as
// Opaque, never guessed.
package shell

import (
	"fmt"
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/safetext"
)

// Analysis is what a command line does to files, in the order the walk meets it, without
// duplicates. Paths are the words as the shell would pass them (quotes removed), joined onto a
// literal `cd DIR` that precedes them; they are not cleaned or resolved.
type Analysis struct {
	Writes      []string // files and directories the command creates or changes
	Dirs        []string // the Writes the command makes as directories (mkdir, python -m venv), existing or not
	Deletes     []string // files and directories it removes
	LinkSources []string // files and directories it gives another name by a hard link (ln, link, cp -l)
	Destructive []string // why the command is destructive, e.g. "rm -rf build"
	Opaque      []string // why the command cannot be analysed, e.g. "eval"
	Reads       []string // files a viewer (cat, head, sed -n, grep on one file…) shows
	// Activates are the virtual environments' activate scripts the command sources
	// (source .venv/bin/activate): the caller decides whether the script is the one the
	// environment was made with, else it is opaque like any script sourced.
	Activates []string
	// AtHome are the write targets spelt ~/… or $HOME/… as they land with
	// the home directory the caller gave (Env.Home). The command may set
	// HOME first, so they stay Opaque too; the caller judges them only
	// against places in the home no agent may write (Claude Code's
	// dev-mods), refusing rather than asking there.
	AtHome []string
	// Unlisted is set when some command runs a program whose writes the
	// analysis does not list (make, an interpreter, a package manager, a
	// script, git beyond its readers): it may write anywhere its user can,
	// the home included.
	Unlisted bool
	Self     []SelfCall // calls of intenthook itself, by any of its names
	// ByPath are the calls of a program named by a path (src/tool, ./ih):
	// the caller finds out whether the file is a link or a copy of
	// intenthook, which its name does not say. Kind is what the call would
	// be as intenthook's.
	ByPath []SelfCall
	Simple bool // the whole line is one simple command: no list, pipe, substitution or redirection
	// ReadOnly is set when the analysis proves the command changes nothing:
	// every command in it is a known reader (ls, cat, grep, git status…)
	// without an option that writes or runs something, with no assignment
	// in front, no write target, nothing opaque or destructive. A command it
	// cannot prove is not ReadOnly, whatever it really does.
	ReadOnly bool
}

// SelfKind says what a call of intenthook from an agent's shell is.
type SelfKind int

const (
	// SelfSelect is `intenthook select <ID>`: one argument, no flags (SPEC §6).
	SelfSelect SelfKind = iota + 1
	// SelfReadOnly is a subcommand that changes nothing governed: intents list, status, blame…
	SelfReadOnly
	// SelfLever is any other call: the human's levers, which an agent may not pull.
	SelfLever
	// SelfDelegate is `intenthook select <ID> --for <TYPE>`: the next subagent of that type gets
	// the intent.
	SelfDelegate
	// SelfSubmit is `intenthook submit <ID>`: one argument, no flags; the
	// agent submits its intent for review.
	SelfSubmit
)

func (k SelfKind) String() string {
	switch k {
	case SelfSelect:
		return "select"
	case SelfReadOnly:
		return "read-only"
	case SelfLever:
		return "lever"
	case SelfDelegate:
		return "delegate"
	case SelfSubmit:
		return "submit"
	}
	return fmt.Sprintf("SelfKind(%d)", int(k))
}

// SelfCall is one call of intenthook found in the command.
type SelfCall struct {
	Kind SelfKind
	Args []string // the words after the program word
	// Program is the program word's last element when it is not plain
	// intenthook (intenthook-full, intenthook-mcp); for a call in ByPath,
	// the path as the shell would run it.
	Program string
	// Path is the program word, placed as targets are, when it names the
	// file by a path (node_modules/intenthook/bin/intenthook, ./bin/intenthook):
	// the caller finds out whether that file is intenthook's.
	Path string
	// Runner is the package runner the call runs under, as written (npx,
	// npm exec, pnpm exec, yarn exec, bunx; "" for none). It runs the first
	// node_modules/.bin/intenthook from Dir up before any on PATH: the
	// caller finds out whether that one is the installed package's.
	Runner string
	// Dir is where the runner's search starts, relative to the cwd.
	Dir string
	// Fetches is set when the runner may download the package the call
	// names instead of running an installed one: npx, npm exec and bunx
	// without --no-install (or --no), pnpm dlx, yarn dlx, a package spec
	// or a path in the place of the program.
	Fetches bool
	// Unplaced is set when the text cannot say which file runs: a program
	// word with an expansion in its path, a runner after a cd the text
	// cannot follow or one run in every package of a workspace.
	Unplaced bool
}

// SelfLook reports whether the command is one call of intenthook's that
// changes nothing governed (status, budget ID, intents list, …): what an
// agent over its budget may still run.
func (a Analysis) SelfLook() bool {
	return a.Simple && len(a.Self) == 1 && a.Self[0].Kind == SelfReadOnly && len(a.ByPath) == 0 &&
		len(a.Writes)+len(a.Deletes)+len(a.LinkSources)+len(a.Destructive)+len(a.Opaque)+len(a.Activates) == 0
}

// Analyse parses cmd and walks every command in it. isDir reports whether a path, in the form it
// would take in Writes, names an existing directory (the caller resolves it against the event's
// cwd); it decides whether `cp a dir` writes dir or dir/a. A nil isDir knows no directories.
func Analyse(cmd string, isDir func(string) bool) Analysis {
	return AnalyseIn(cmd, Env{IsDir: isDir})
}

// Env is what the analysis may know of the place a command runs in.
type Env struct {
	// IsDir is Analyse's isDir.
	IsDir func(string) bool
	// Home is the user's home directory: a link's target spelt ~/… or $HOME/… is judged where
	// it points. Empty, such a target is opaque.
	Home string
}

// AnalyseIn is Analyse with what env knows.
func AnalyseIn(cmd string, env Env) (a Analysis) {
	defer func() {
		// A last guard, not a way of working: the hook has to answer, and a command we failed
		// to analyse is one we cannot vouch for.
		if r := recover(); r != nil {
			a = Analysis{Opaque: []string{fmt.Sprintf("internal error while analysing the command: %v", r)}}
		}
	}()
	w := &walker{isDir: env.IsDir, home: env.Home}
	file := w.script(&frame{src: cmd}, "")
	w.found.Simple = file != nil && isSimple(file)
	a = w.result()
	a.ReadOnly = file != nil && !w.unproven && len(a.Writes)+len(a.Deletes)+len(a.LinkSources)+len(a.Destructive)+len(a.Opaque)+len(a.Self)+len(a.Activates) == 0
	return a
}

// Checks returns the checks (each a program and its leading arguments, as
// config.yaml's shell.checks lists them: "go test", "make", "./gradlew
// test", or an intent's acceptance check) that some simple command of cmd
// runs: its program word and first arguments are those words, verbatim and
// literal, whatever follows them. A check inside `sh -c`, after `env` or
// `sudo`, in a pipeline or a list counts; text that only looks like one (an
// echo of it, a comment) does not. A check that is no simple command counts
// when cmd is that text. Only the program the check names counts: another
// file of that name (src/go, ./go, /tmp/go), a program named by a path
// after a cd (./gradlew elsewhere), and every check of a command that
// changes what a name runs (it sets PATH, BASH_ENV or ENV, defines a
// function or an alias, or runs source, eval, hash or enable) do not.
func Checks(cmd string, checks []string) (found []string) {
	if len(checks) == 0 {
		return nil
	}
	defer func() {
		if recover() != nil {
			found = nil
		}
	}()
	words := make([][]string, len(checks))
	for i, c := range checks {
		words[i] = strings.Fields(c)
	}
	w := &walker{}
	rebinds := false
	w.onDefine = func(name string) {
		if name == "" || pathVar(name) {
			rebinds = true
		}
	}
	w.onCall = func(c *call) {
		if rebinder(c) {
			rebinds = true
		}
		for i, want := range words {
			if len(want) == 0 || !c.prog.literal || c.prog.text != want[0] || len(c.args) < len(want)-1 || slices.Contains(found, checks[i]) {
				continue
			}
			if strings.Contains(want[0], "/") && (c.f.dir != "" || c.f.lost) {
				continue // a program named by a path, from elsewhere
			}
			ok := true
			for j, a := range c.args[:len(want)-1] {
				if !a.literal || a.text != want[j+1] {
					ok = false
					break
				}
			}
			if ok {
				found = append(found, checks[i])
			}
		}
	}
	w.script(&frame{src: cmd}, "")
	for _, c := range checks {
		if strings.TrimSpace(c) != "" && strings.TrimSpace(c) == strings.TrimSpace(cmd) && !slices.Contains(found, c) {
			found = append(found, c)
		}
	}
	if rebinds {
		return nil
	}
	return found
}

// pathVar reports the variables that change which program a name runs, or
// run a file before a shell's command: set in a command, its checks do
// not count.
func pathVar(name string) bool { return name == "PATH" || name == "BASH_ENV" || name == "ENV" }

// rebinder reports whether c can change what a program's name runs in the
// rest of the command: an alias, a script sourced or evaluated in this
// shell, a hashed path, a loaded builtin, a read into PATH.
func rebinder(c *call) bool {
	switch c.name {
	case "alias", "source", ".", "eval", "hash", "enable":
		return true
	case "read", "printf", "mapfile", "readarray", "getopts", "declare", "typeset", "export", "local", "readonly":
		for _, a := range c.args {
			if !a.literal {
				continue
			}
			name, _, _ := strings.Cut(a.text, "=")
			if pathVar(name) {
				return true
			}
		}
	}
	return false
}

// SelectID returns the intent id when the whole command is `intenthook select <ID>` and nothing
// else, and "" otherwise.
func (a Analysis) SelectID() string {
	if !a.Simple || len(a.Self) != 1 || a.Self[0].Kind != SelfSelect {
		return ""
	}
	return a.Self[0].Args[1]
}

// SubmitID returns the intent id when the whole command is
// `intenthook submit <ID>` and nothing else, and "" otherwise.
func (a Analysis) SubmitID() string {
	if !a.Simple || len(a.Self) != 1 || a.Self[0].Kind != SelfSubmit {
		return ""
	}
	return a.Self[0].Args[1]
}

// Delegation returns the intent id and agent type when the whole command is
// `intenthook select <ID> --for <TYPE>` and nothing else.
func (a Analysis) Delegation() (id, agentType string) {
	if !a.Simple || len(a.Self) != 1 || a.Self[0].Kind != SelfDelegate {
		return "", ""
	}
	args := a.Self[0].Args
	for i := 1; i < len(args); i++ {
		switch {
		case args[i] == "--for" && i+1 < len(args):
			agentType = args[i+1]
			i++
		case strings.HasPrefix(args[i], "--for="):
			agentType = strings.TrimPrefix(args[i], "--for=")
		default:
			id = args[i]
		}
	}
	return id, agentType
}

// walker collects findings while it goes through the syntax tree. One walker serves one Analyse.
type walker struct {
	isDir func(string) bool
	home  string // the user's home directory, when known
	found Analysis
	// unproven is set by any command the walk cannot prove read-only.
	unproven bool
	// links made earlier in the command, which later targets go through.
	links []link
	// onCall, when set, sees every simple command after its wrappers
	// (env, sudo, xargs, sh -c, …) are taken off.
	onCall func(*call)
	// onDefine, when set, sees each variable the command assigns (in front
	// of a command, after env or sudo, exported or declared) by its name,
	// and each function it defines as "".
	onDefine func(name string)
}

func (w *walker) write(p string)  { w.found.Writes = append(w.found.Writes, p) }
func (w *walker) delete(p string) { w.found.Deletes = append(w.found.Deletes, p) }
func (w *walker) read(p string)   { w.found.Reads = append(w.found.Reads, p) }
func (w *walker) linkSource(p string) {
	w.found.LinkSources = append(w.found.LinkSources, p)
}
func (w *walker) opaque(why string) {
	w.found.Opaque = append(w.found.Opaque, shorten(why))
}
func (w *walker) destructive(why string) {
	w.found.Destructive = append(w.found.Destructive, shorten(why))
}

// isDirectory asks the caller whether a path (as it would appear in Writes) is a directory.
func (w *walker) isDirectory(p string) bool {
	return w.isDir != nil && w.isDir(p)
}

// result returns the findings with duplicates removed, keeping the first of each.
func (w *walker) result() Analysis {
	a := w.found
	a.Writes = unique(a.Writes)
	a.Deletes = unique(a.Deletes)
	a.LinkSources = unique(a.LinkSources)
	a.Destructive = unique(a.Destructive)
	a.Opaque = unique(a.Opaque)
	a.AtHome = unique(a.AtHome)
	a.Reads = unique(a.Reads)
	a.Activates = unique(a.Activates)
	return a
}

func unique(list []string) []string {
	if len(list) == 0 {
		return nil
	}
	seen := make(map[string]bool, len(list))
	out := list[:0]
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// maxReason bounds a reason's length: reasons quote the command, and a command can hold a whole
// file in a here-document.
const maxReason = 160

// shorten cuts a reason to maxReason bytes, marking the cut.
func shorten(s string) string {
	if len(s) <= maxReason {
		return s
	}
	return strings.TrimSpace(safetext.Prefix(s, maxReason)) + safetext.Ellipsis
}
