package shell

import (
	"fmt"
	"strings"
)

// Programs that run another command: package runners (npx, npm exec, yarn exec, pnpm exec,
// bun x), terminal multiplexers (tmux, screen), and the programs that hand a command to a
// process already running outside the agent's process tree (tmux send-keys, screen -X stuff,
// at), which the text cannot follow past the hand-over. A command run directly is walked as
// if it had been written alone; a background session started by tmux new -d is walked like
// nohup's, whatever it does after the hook's post.

// handsOver is the reason a command hands work to a process outside the agent's tree.
func handsOver(what string) string {
	return what + " hands a command to a process outside the agent's process tree, which runs it after this hook's checks"
}

// npx runs a package's program, or with -c a shell script: npx [opts] CMD ARGS, npx -c 'script'.
// The command runs under the runner (via): an intenthook in it is the one the runner finds.
func (w *walker) npx(c *call, args []arg) {
	p, rest := options{
		short:    "pc",
		long:     []string{"package", "call", "registry", "cache", "userconfig", "node-options", "prefix"},
		switches: []string{"no", "no-install", "no-yes", "yes"},
	}.leading(args)
	var prefix *arg
	if dir, ok := p.value("prefix"); ok {
		prefix = &dir
	}
	if script, ok := p.value("c", "call"); ok {
		w.inline(&call{f: runUnder(c.f, c.name, prefix, false), prog: c.prog, name: c.name}, script)
		return
	}
	if len(rest) > 0 {
		f := runUnder(c.f, c.name, prefix, mayFetch(c.name, p) || strings.Contains(rest[0].text, "/"))
		f.via.word = rest[0].word
		w.run(f, rest, stdin{})
	}
}

// packageRunner walks the command of npm exec, npm x, yarn exec, yarn dlx, pnpm exec, pnpm dlx,
// bun x and bun exec; every other subcommand (npm test, yarn build) runs the project's scripts,
// which the backstop judges.
func (w *walker) packageRunner(c *call) {
	global := options{
		short: "Cw",
		long:  []string{"prefix", "workspace", "registry", "cache", "userconfig", "cwd", "dir", "filter", "loglevel", "config"},
	}
	if c.name == "pnpm" {
		global.short = "CwF"
	}
	p, rest := global.leading(c.args)
	if len(rest) == 0 || !rest[0].literal {
		return
	}
	f := c.f
	if dir, ok := p.value("C", "cwd", "dir"); ok {
		f = f.subshell()
		f.cd(dir)
	}
	if p.has("r", "recursive", "F", "filter", "w", "workspace", "workspaces", "ws") {
		// the command runs in each package's directory
		f = f.subshell()
		f.lost = true
	}
	sub, rest := rest[0].text, rest[1:]
	runner := c.name + " " + sub
	var prefix *arg
	if dir, ok := p.value("prefix"); ok && c.name == "npm" {
		prefix = &dir // npm looks for the program from there; the command runs here
	}
	inner := &call{f: runUnder(f, runner, prefix, false), prog: c.prog, name: runner}
	switch {
	case sub == "exec" && c.name == "bun":
		// bun exec "script": a script for bun's own shell
		if len(rest) > 0 {
			w.inline(inner, rest[0])
		}
	case sub == "exec" || sub == "x" || sub == "dlx":
		shellMode := p.has("c", "shell-mode")
		q, words := options{short: "pc", long: []string{"package", "call"}, switches: []string{"no", "no-install", "no-yes", "yes"}}.leading(rest)
		shellMode = shellMode || q.has("shell-mode")
		if script, ok := q.value("c", "call"); ok {
			w.inline(inner, script)
			return
		}
		switch {
		case shellMode && len(words) == 1:
			w.inline(inner, words[0])
		case len(words) > 0:
			g := runUnder(f, runner, prefix, mayFetch(runner, p, q) || c.name != "pnpm" && c.name != "yarn" && strings.Contains(words[0].text, "/"))
			g.via.word = words[0].word
			w.run(g, words, stdin{})
		}
	}
}

// tmuxCommands are tmux's commands that matter here, by full name, with their aliases: the
// ones that run a shell command (new-session…, run-shell), and the ones that hand input or
// commands to a session already running (send-keys, paste-buffer, if-shell, source-file).
var tmuxCommands = []struct {
	name, alias string
	valued      string // option letters with values
	runs        bool   // the operands are a shell command, run in a new pane or process
}{
	{"new-session", "new", "ceFfnstxy", true},
	{"new-window", "neww", "ceFnt", true},
	{"split-window", "splitw", "celptF", true},
	{"respawn-pane", "respawnp", "cet", true},
	{"respawn-window", "respawnw", "cet", true},
	{"run-shell", "run", "dt", true},
	{"display-popup", "popup", "bcdehsSTtwxy", true},
	{"pipe-pane", "pipep", "t", true},
	{"send-keys", "send", "cNt", false},
	{"send-prefix", "", "t", false},
	{"paste-buffer", "pasteb", "bst", false},
	{"if-shell", "if", "t", false},
	{"source-file", "source", "t", false},
	{"set-hook", "", "t", false},
	{"set-option", "set", "t", false},
}

// tmux walks the shell command of the commands that start one (a new session, window or pane;
// run-shell), and makes the ones that type into a session already running a question:
// send-keys, paste-buffer, if-shell, source-file, hooks. Commands are separated by a ";" word.
func (w *walker) tmux(c *call) {
	p, rest := options{short: "LSfcT"}.leading(c.args)
	if script, ok := p.value("c"); ok {
		w.inline(&call{f: c.f, prog: c.prog, name: c.name}, script)
	}
	if file, ok := p.value("f"); ok {
		w.opaque(fmt.Sprintf("%s -f reads its commands from a file: %s", c.name, file.raw))
	}
	for len(rest) > 0 {
		end := 0
		for end < len(rest) && !(rest[end].literal && rest[end].text == ";") {
			end++
		}
		w.tmuxCommand(c, rest[:end])
		if end == len(rest) {
			break
		}
		rest = rest[end+1:]
	}
}

func (w *walker) tmuxCommand(c *call, words []arg) {
	if len(words) == 0 {
		return
	}
	if !words[0].literal {
		w.opaque(fmt.Sprintf("%s command is not a literal word: %s", c.name, words[0].raw))
		return
	}
	given := words[0].text
	for _, tc := range tmuxCommands {
		if given != tc.name && given != tc.alias && !(len(given) >= 3 && strings.HasPrefix(tc.name, given)) {
			continue
		}
		p, rest := options{short: tc.valued}.leading(words[1:])
		switch {
		case tc.name == "set-option" || tc.name == "set-hook":
			if tc.name == "set-hook" || (len(rest) > 0 && (rest[0].text == "default-command" || rest[0].text == "default-shell" || !rest[0].literal)) {
				w.opaque(fmt.Sprintf("%s %s sets a command a session runs later", c.name, tc.name))
			}
		case !tc.runs:
			w.opaque(handsOver(c.name + " " + tc.name))
		case tc.name == "run-shell" && p.has("C"):
			w.tmuxCommand(c, rest) // the command is tmux's own
		default:
			f := c.f.subshell()
			if dir, ok := p.value("c"); ok && tc.name != "run-shell" {
				f.cd(dir)
			}
			inner := &call{f: f, prog: c.prog, name: c.name + " " + tc.name}
			switch len(rest) {
			case 0:
			case 1:
				w.inline(inner, rest[0])
			default:
				w.run(f, rest, stdin{})
			}
		}
		return
	}
}

// screen walks the command a new screen session runs (screen -dm CMD) and makes -X and -Q,
// which hand a command to a session already running, a question when that command types,
// runs or writes (stuff, exec, screen, eval, source, paste…).
func (w *walker) screen(c *call) {
	args := c.args
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !isOption(a) {
			if !a.literal && isOptionLead(a.lead) {
				w.opaque(fmt.Sprintf("%s option is not a literal word: %s", c.name, a.raw))
				return
			}
			w.run(c.f, args[i:], stdin{})
			return
		}
		switch t := a.text; {
		case t == "-X" || t == "-Q":
			w.screenCommand(c, args[i+1:])
			return
		case t == "-ls" || t == "-list" || t == "-v" || t == "--version" || t == "-h" || t == "--help":
			return
		case t == "-c":
			if i+1 < len(args) {
				w.opaque(fmt.Sprintf("%s -c reads its commands from a file: %s", c.name, args[i+1].raw))
			}
			i++
		case t == "-Logfile" || t == "-logfile":
			if i+1 < len(args) {
				w.target(c.f, c.name, writes, args[i+1])
			}
			i++
		case t == "--":
			w.run(c.f, args[i+1:], stdin{})
			return
		default:
			// a cluster such as -dmS NAME: a valued letter last takes the next word
			last := t[len(t)-1:]
			if strings.Contains("SpteThs", last) && len(t) >= 2 && !strings.ContainsAny(t[1:len(t)-1], "SpteThs") {
				i++
			}
		}
	}
}

func (w *walker) screenCommand(c *call, words []arg) {
	if len(words) == 0 {
		return
	}
	if !words[0].literal {
		w.opaque(fmt.Sprintf("%s -X command is not a literal word: %s", c.name, words[0].raw))
		return
	}
	switch words[0].text {
	case "stuff", "exec", "screen", "eval", "source", "paste", "register", "readreg", "readbuf",
		"bufferfile", "writebuf", "hardcopy", "log", "logfile", "at", "process", "defshell", "shell":
		w.opaque(handsOver(c.name + " -X " + words[0].text))
	}
}

// atJob is at and batch: the commands they read run later, in the at daemon, outside the
// agent's process tree. Listing, removing and showing jobs runs nothing.
func (w *walker) atJob(c *call) {
	p := options{short: "fqtM", long: nil}.parse(c.args)
	if p.has("l", "r", "d", "c", "V") {
		return
	}
	w.opaque(handsOver(c.name))
}

// codeRunner is a program whose whole job is to run a program written in its own language
// (expect's Tcl, osascript's AppleScript): opaque, as python -c is.
func (w *walker) codeRunner(c *call, language string) {
	for _, a := range c.args {
		if a.literal && (a.text == "-v" || a.text == "--version" || a.text == "-h" || a.text == "--help") {
			return
		}
	}
	w.opaque(fmt.Sprintf("%s runs a %s program", c.name, language))
}
