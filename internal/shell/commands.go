package shell

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// call is one simple command with its wrappers stripped: the program and the words after it.
type call struct {
	f    *frame
	prog arg    // the program word
	name string // its last path element: /usr/bin/rm is rm
	args []arg
	in   stdin
}

// text is the command as written, to quote in reasons.
func (c *call) text() string {
	parts := []string{c.prog.raw}
	for _, a := range c.args {
		if a.raw != "" {
			parts = append(parts, a.raw)
		}
	}
	return strings.Join(parts, " ")
}

// run analyses one command given as words, after stripping the wrappers in front of it.
func (w *walker) run(f *frame, words []arg, in stdin) {
	for len(words) > 0 {
		c := &call{f: f, prog: words[0], name: words[0].name, args: words[1:], in: in}
		switch {
		case c.prog.feed != "":
			w.opaque(fmt.Sprintf("%s feeds the program to run at run time", c.prog.feed))
			return
		case c.name == "":
			if !c.prog.literal {
				w.opaque("program is not a literal word: " + c.prog.raw)
			}
			return
		}
		unwrap := wrapper(c.name)
		if unwrap == nil {
			w.dispatch(c)
			return
		}
		words, f = unwrap(w, c)
	}
}

// unwrapper strips a wrapper command: it returns the words of the command the wrapper runs, from
// the program on, and the frame that command runs in.
type unwrapper func(w *walker, c *call) ([]arg, *frame)

// wrapper returns how to strip the wrapper named name, or nil when it is no wrapper.
func wrapper(name string) unwrapper {
	switch name {
	case "sudo", "doas":
		return (*walker).sudo
	case "env":
		return (*walker).env
	case "command":
		return (*walker).commandBuiltin
	case "builtin", "nohup", "unbuffer", "setsid":
		return skipping(options{})
	case "exec":
		return skipping(options{short: "a"})
	case "nice":
		return skipping(options{short: "n", long: []string{"adjustment"}})
	case "stdbuf":
		return skipping(options{short: "ioe", long: []string{"input", "output", "error"}})
	case "ionice":
		return skipping(options{short: "cnpPu", long: []string{"class", "classdata", "pid", "pgid", "uid"}})
	case "timeout":
		return (*walker).timeout
	case "time":
		return (*walker).time
	case "xargs":
		return (*walker).xargs
	}
	return nil
}

// skipping strips a wrapper that takes options and then the command.
func skipping(o options) unwrapper {
	return func(_ *walker, c *call) ([]arg, *frame) {
		_, rest := o.leading(c.args)
		return rest, c.f
	}
}

func (w *walker) sudo(c *call) ([]arg, *frame) {
	p, rest := options{
		short: "ugpCrtUDRTh",
		long: []string{"user", "group", "prompt", "close-from", "role", "type", "other-user",
			"chdir", "chroot", "host", "command-timeout"},
	}.leading(c.args)
	f := c.f
	if dir, ok := p.value("D", "chdir"); ok {
		f = f.subshell()
		f.cd(dir)
	}
	if p.has("e", "edit") {
		for _, a := range rest {
			w.target(f, "sudoedit", writes, a)
		}
		return nil, f
	}
	return w.assignments(rest), f
}

func (w *walker) env(c *call) ([]arg, *frame) {
	p, rest := options{short: "uCS", long: []string{"unset", "chdir", "split-string"}}.leading(c.args)
	if s, ok := p.value("S", "split-string"); ok {
		w.opaque("env -S builds the command from a string: " + s.raw)
		return nil, c.f
	}
	f := c.f
	if dir, ok := p.value("C", "chdir"); ok {
		f = f.subshell()
		f.cd(dir)
	}
	if len(rest) > 0 && rest[0].literal && rest[0].text == "-" {
		rest = rest[1:] // `env -` is `env -i`
	}
	return w.assignments(rest), f
}

// assignments drops the NAME=value words that sudo and env accept before the command, judging
// each as the shell's own assignments are.
func (w *walker) assignments(words []arg) []arg {
	for len(words) > 0 && words[0].literal {
		name, value, ok := strings.Cut(words[0].text, "=")
		if !ok || !syntax.ValidName(name) {
			break
		}
		if w.onDefine != nil {
			w.onDefine(name)
		}
		if gitEnv(name) {
			w.assignment(name, literal(value))
		}
		words = words[1:]
	}
	return words
}

func (w *walker) commandBuiltin(c *call) ([]arg, *frame) {
	p, rest := options{}.leading(c.args)
	if p.has("v", "V") {
		return nil, c.f // `command -v x` looks x up; it runs nothing
	}
	return rest, c.f
}

func (w *walker) timeout(c *call) ([]arg, *frame) {
	_, rest := options{short: "sk", long: []string{"signal", "kill-after"}}.leading(c.args)
	if len(rest) > 0 {
		rest = rest[1:] // the duration
	}
	return rest, c.f
}

// time is GNU time as a program; the `time` keyword is parsed as a TimeClause instead.
func (w *walker) time(c *call) ([]arg, *frame) {
	p, rest := options{short: "fo", long: []string{"format", "output"}}.leading(c.args)
	if out, ok := p.value("o", "output"); ok {
		w.target(c.f, c.name, writes, out)
	}
	return rest, c.f
}

// xargs runs a command with words read from stdin, which the analysis stands in for with words
// marked as fed: a fed word among a command's targets makes the command opaque.
func (w *walker) xargs(c *call) ([]arg, *frame) {
	p, rest := options{
		short:    "ILnPsdEa",
		attached: "ile",
		long:     []string{"max-args", "max-procs", "max-chars", "delimiter", "arg-file", "process-slot-var"},
	}.leading(c.args)
	if len(rest) == 0 {
		return nil, c.f // xargs alone runs echo
	}
	input := arg{feed: "xargs"}
	replace := ""
	if v, ok := p.value("I"); ok {
		replace = v.text
	} else if v, ok := p.value("i", "replace"); ok {
		replace = v.text
		if replace == "" {
			replace = "{}"
		}
	}
	if replace == "" {
		return append(slices.Clone(rest), input), c.f
	}
	return feedWords(rest, replace, input), c.f
}

// feedWords returns words with each one that holds the placeholder replaced by input.
func feedWords(words []arg, placeholder string, input arg) []arg {
	out := slices.Clone(words)
	for i, a := range out {
		if a.literal && strings.Contains(a.text, placeholder) {
			out[i] = input
			out[i].raw = a.raw
		}
	}
	return out
}

// dispatch analyses a command whose program is not a wrapper.
func (w *walker) dispatch(c *call) {
	if w.onCall != nil {
		w.onCall(c)
	}
	w.byPath(c)
	if !listsWrites(c.name) && !provesReadOnly(c.name, c.args) {
		w.found.Unlisted = true
	}
	if selfName(c.name) {
		w.self(c)
		return
	}
	switch c.name {
	case "cd", "pushd":
		w.cd(c)
	case "popd":
		c.f.lost = true
	case "rm":
		w.rm(c)
	case "rmdir", "unlink":
		w.targets(c, deletes, options{}.parse(c.args).operands)
	case "shred":
		w.shred(c)
	case "cp":
		w.cp(c)
	case "mv":
		w.mv(c)
	case "install":
		w.install(c)
	case "ln":
		w.ln(c)
	case "link":
		w.link(c)
	case "rsync", "scp":
		w.remoteCopy(c)
	case "dd":
		w.dd(c)
	case "touch":
		w.targets(c, writes, options{short: "drt", long: []string{"date", "reference"}}.parse(c.args).operands)
	case "truncate":
		w.targets(c, writes, options{short: "sr", long: []string{"size", "reference"}}.parse(c.args).operands)
	case "mkdir":
		w.targets(c, makesDir, options{short: "m", long: []string{"mode"}}.parse(c.args).operands)
	case "tee":
		w.targets(c, writes, options{}.parse(c.args).operands)
	case "sed":
		w.sed(c)
	case "perl":
		w.perl(c)
	case "bash", "sh", "zsh", "dash", "ksh", "ash", "mksh":
		w.shell(c)
	case "eval":
		w.opaque("eval")
	case "source", ".":
		w.source(c)
	case "find":
		w.find(c)
	case "git":
		w.git(c)
	case "patch":
		w.patch(c)
	case "apply_patch", "applypatch":
		w.applyPatch(c)
	case "psql", "mysql", "mariadb", "sqlite3":
		w.sql(c)
	case "chmod", "chown", "chgrp":
		w.recursiveMode(c)
	case "kill":
		w.kill(c)
	case "cat", "head", "tail", "less", "more":
		w.view(c)
	case "grep", "egrep", "fgrep", "rg":
		w.grep(c)
	case "curl", "wget":
		w.download(c)
	case "deno":
		w.deno(c)
	case "sort":
		w.sort(c)
	case "uniq":
		w.uniq(c)
	case "awk", "gawk", "mawk", "nawk":
		w.awk(c)
	case "tar", "bsdtar", "gtar":
		w.tar(c)
	case "zip":
		w.zip(c)
	case "script":
		w.recorder(c)
	case "gh":
		w.gh(c)
	case "virtualenv":
		w.venv(c, c.name, c.args)
	case "rename":
		w.rename(c)
	case "make", "gmake":
		w.make(c)
	case "npx", "bunx", "pnpx":
		w.npx(c, c.args)
	case "npm", "yarn", "pnpm", "bun":
		w.packageRunner(c)
	case "tmux":
		w.tmux(c)
	case "screen":
		w.screen(c)
	case "at", "batch":
		w.atJob(c)
	case "expect":
		w.codeRunner(c, "Tcl")
	case "osascript":
		w.codeRunner(c, "AppleScript or JavaScript")
	default:
		if in, ok := interpreterFor(c.name); ok {
			w.interpret(c, in)
		} else if c.name == "mkfs" || strings.HasPrefix(c.name, "mkfs.") {
			w.destructive(c.text())
		}
	}
}

// make runs the makefile's recipes, which the backstop judges; --eval runs its text as a
// makefile of the command's own.
func (w *walker) make(c *call) {
	p := options{short: "CfIEWo", long: []string{"directory", "file", "makefile", "include-dir", "eval", "what-if", "new-file", "assume-new", "old-file", "assume-old"}}.parse(c.args)
	if text, ok := p.value("E", "eval"); ok {
		w.opaque(fmt.Sprintf("%s --eval runs its text as a makefile: %s", c.name, text.raw))
	}
}

// targets reports each word as a path the command writes or deletes.
func (w *walker) targets(c *call, e effect, list []arg) {
	for _, a := range list {
		w.target(c.f, c.name, e, a)
	}
}

func (w *walker) cd(c *call) {
	p := options{}.parse(c.args)
	if len(p.operands) == 0 {
		c.f.lost = true // home
		return
	}
	c.f.cd(p.operands[0])
}

// source runs a script in this shell. A virtual environment's activate script is left to the
// caller (Analysis.Activates), which can tell whether the environment made it.
func (w *walker) source(c *call) {
	if len(c.args) == 0 {
		return
	}
	script := c.args[0]
	if script.literal && path.Base(script.text) == "activate" {
		if dir := path.Base(path.Dir(script.text)); dir == "bin" || dir == "Scripts" {
			if p, ok := c.f.place(script.text); ok {
				w.found.Activates = append(w.found.Activates, p)
				return
			}
		}
	}
	w.opaque(fmt.Sprintf("%s runs a script file: %s", c.name, script.raw))
}
