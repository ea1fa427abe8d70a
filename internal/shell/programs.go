package shell

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	patchfmt "github.com/intenthook/intenthook/internal/patch"
)

// Programs that run other code: shells, interpreters, find -exec, patch, databases; and the
// destructive commands that touch no file named on their command line.

// shell walks the script of `bash -c '…'` as a script of its own; a script file or a script on
// stdin cannot be read from the command line.
func (w *walker) shell(c *call) {
	command, fromStdin := false, false
	i := 0
scan:
	for ; i < len(c.args); i++ {
		a := c.args[i]
		if !a.literal || len(a.text) < 2 || (a.text[0] != '-' && a.text[0] != '+') {
			break
		}
		switch a.text {
		case "--", "-":
			i++
			break scan
		case "--rcfile", "--init-file":
			i++
			continue
		case "--version", "--help":
			return
		}
		if strings.HasPrefix(a.text, "--") {
			continue
		}
		for _, letter := range a.text[1:] {
			switch letter {
			case 'c':
				command = true
			case 's':
				fromStdin = true
			case 'o', 'O': // -o pipefail: the option name is the next word
				i++
				continue scan
			}
		}
	}
	operands := c.args[min(i, len(c.args)):]
	switch {
	case command && len(operands) > 0:
		w.inline(c, operands[0])
	case command:
	case fromStdin || (len(operands) == 0 && c.in.fed):
		w.opaque(c.name + " reads its script from stdin")
	case len(operands) > 0:
		w.opaque(fmt.Sprintf("%s runs a script file: %s", c.name, operands[0].raw))
	}
}

// inline walks the script string of `sh -c`.
func (w *walker) inline(c *call, script arg) {
	switch {
	case script.feed != "":
		w.opaque(fmt.Sprintf("%s feeds %s -c its script at run time", script.feed, c.name))
	case !script.literal:
		w.opaque(fmt.Sprintf("%s -c script is not a literal word: %s", c.name, script.raw))
	case c.f.depth >= maxDepth:
		w.opaque(c.name + " -c scripts nested too deeply")
	default:
		w.script(c.f.nested(script.text), c.name+" -c script: ")
	}
}

// interpreter describes how a language runtime takes its program from the command line.
type interpreter struct {
	code     string   // option letters followed by inline code: python -c
	codeLong []string // long options followed by inline code: node --eval
	stop     string   // option letters after which nothing is ours to read: python -m, -V
	valued   options  // options with values, to step over
}

func interpreterFor(name string) (interpreter, bool) {
	switch {
	case isPython(name):
		return interpreter{code: "c", stop: "mVh", valued: options{short: "WXQ"}}, true
	case name == "node" || name == "nodejs" || name == "bun":
		return interpreter{
			code: "ep", codeLong: []string{"eval", "print"}, stop: "vh",
			valued: options{short: "rC", long: []string{"require", "import", "loader",
				"experimental-loader", "conditions", "input-type", "title"}},
		}, true
	case name == "ruby":
		return interpreter{code: "e", stop: "vh", valued: options{short: "ICrE"}}, true
	case name == "php":
		return interpreter{code: "rBRE", stop: "fFvhilms", valued: options{short: "cdz"}}, true
	}
	return interpreter{}, false
}

// isPython matches python, python3, python3.12.
func isPython(name string) bool {
	version, ok := strings.CutPrefix(name, "python")
	return ok && strings.Trim(version, "0123456789.") == ""
}

// interpret makes a one-liner opaque: its code can write anything. A program in a file is not
// read; a program on stdin is opaque too.
func (w *walker) interpret(c *call, in interpreter) {
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		if !isOption(a) {
			if a.literal && a.text == "-" {
				break
			}
			return // a script file or a subcommand
		}
		if name, ok := strings.CutPrefix(a.text, "--"); ok {
			name, _, hasValue := strings.Cut(name, "=")
			switch {
			case name == "":
				if i+1 < len(c.args) {
					return
				}
			case slices.Contains(in.codeLong, name):
				w.opaque(fmt.Sprintf("%s --%s one-liner", c.name, name))
				return
			case name == "version" || name == "help":
				return
			case !hasValue && slices.Contains(in.valued.long, name):
				i++
			}
			continue
		}
		for j := 1; j < len(a.text); j++ {
			letter := a.text[j : j+1]
			switch {
			case strings.Contains(in.code, letter):
				w.opaque(fmt.Sprintf("%s -%s one-liner", c.name, letter))
				return
			case letter == "m" && isPython(c.name):
				w.pythonModule(c, a.text[j+1:], c.args[i+1:])
				return
			case strings.Contains(in.stop, letter):
				return
			case strings.Contains(in.valued.short, letter):
				if j+1 == len(a.text) {
					i++
				}
				j = len(a.text)
			}
		}
	}
	if c.in.fed || slices.ContainsFunc(c.args, func(a arg) bool { return a.literal && a.text == "-" }) {
		w.opaque(c.name + " reads its program from stdin")
	}
}

// pythonModule looks at the module python -m runs: venv (and virtualenv) write their
// directory. attached is the module's name when it was written -mvenv.
func (w *walker) pythonModule(c *call, attached string, rest []arg) {
	module := attached
	if module == "" {
		if len(rest) == 0 || !rest[0].literal {
			return
		}
		module, rest = rest[0].text, rest[1:]
	}
	if module == "venv" || module == "virtualenv" {
		w.venv(c, c.name+" -m "+module, rest)
	}
}

// perl is an interpreter whose -i turns a one-liner into an in-place edit of the files after it:
// `perl -pi -e 's/a/b/' f` writes f and is not opaque.
func (w *walker) perl(c *call) {
	code, inPlace := false, false
	i := 0
scan:
	for ; i < len(c.args); i++ {
		a := c.args[i]
		if !isOption(a) {
			break
		}
		switch {
		case a.text == "--":
			i++
			break scan
		case a.text == "--version" || a.text == "--help":
			return
		case strings.HasPrefix(a.text, "--"):
			continue
		}
		for j := 1; j < len(a.text); j++ {
			switch letter := a.text[j]; {
			case letter == 'e' || letter == 'E':
				code = true
				if j+1 == len(a.text) {
					i++ // the code is the next word
				}
				continue scan
			case letter == 'i':
				inPlace = true
				continue scan // the rest is the backup suffix
			case strings.IndexByte("IMmxdDFC", letter) >= 0:
				continue scan // the rest is this option's value
			case letter == 'l' || letter == '0':
				for j+1 < len(a.text) && strings.IndexByte("0123456789abcdefABCDEFx", a.text[j+1]) >= 0 {
					j++
				}
			case letter == 'v' || letter == 'V' || letter == 'h':
				return
			}
		}
	}
	operands := c.args[min(i, len(c.args)):]
	if !code {
		if len(operands) == 0 {
			if c.in.fed {
				w.opaque(c.name + " reads its program from stdin")
			}
			return
		}
		operands = operands[1:] // the script file
	}
	switch {
	case inPlace:
		w.targets(c, writes, operands)
	case code:
		w.opaque(c.name + " -e one-liner")
	}
}

func (w *walker) deno(c *call) {
	_, rest := options{}.leading(c.args)
	if len(rest) > 0 && rest[0].literal && rest[0].text == "eval" {
		w.opaque("deno eval one-liner")
	}
}

// find deletes its start paths with -delete and runs a command per file with -exec, whose {}
// stands for a path known only at run time.
func (w *walker) find(c *call) {
	args := c.args
	for len(args) > 0 && args[0].literal && isFindGlobal(args[0].text) {
		if args[0].text == "-D" && len(args) > 1 {
			args = args[1:]
		}
		args = args[1:]
	}
	var starts []arg
	for len(args) > 0 && !isFindExpression(args[0]) {
		starts = append(starts, args[0])
		args = args[1:]
	}
	deleting := false
	for i := 0; i < len(args); i++ {
		if !args[i].literal {
			continue
		}
		switch primary := args[i].text; primary {
		case "-delete":
			deleting = true
		case "-exec", "-execdir", "-ok", "-okdir":
			end := i + 1
			for end < len(args) && !(args[end].literal && (args[end].text == ";" || args[end].text == "+")) {
				end++
			}
			f := c.f.subshell()
			f.lost = f.lost || strings.HasSuffix(primary, "dir") // runs in each found file's directory
			w.run(f, feedWords(args[i+1:end], "{}", arg{feed: "find -exec"}), stdin{})
			i = end
		case "-fprint", "-fprint0", "-fls", "-fprintf":
			if i+1 < len(args) {
				w.target(c.f, c.name, writes, args[i+1])
				i++
			}
		}
	}
	if deleting {
		if len(starts) == 0 {
			starts = []arg{literal(".")}
		}
		w.destructive(c.text()) // every file the expression matches, gone for good
		w.targets(c, deletes, starts)
	}
}

func isFindGlobal(text string) bool {
	return text == "-H" || text == "-L" || text == "-P" || text == "-D" || strings.HasPrefix(text, "-O")
}

// isFindExpression reports whether a word starts find's expression, ending the start paths.
func isFindExpression(a arg) bool {
	return a.literal && (strings.HasPrefix(a.text, "-") || a.text == "(" || a.text == ")" || a.text == "!" || a.text == ",")
}

// patch writes the file named on its command line, or the files the patch names.
func (w *walker) patch(c *call) {
	p := options{
		short: "pioDdrBzVYFg",
		long: []string{"strip", "input", "output", "directory", "reject-file", "prefix", "suffix",
			"basename-prefix", "ifdef", "fuzz", "get", "quoting-style", "version-control"},
	}.parse(c.args)
	if p.has("dry-run") {
		return
	}
	f := c.f
	if dir, ok := p.value("d", "directory"); ok {
		f = f.subshell()
		f.cd(dir)
	}
	if out, ok := p.value("o", "output"); ok {
		if out.text != "-" {
			w.target(f, c.name, writes, out)
		}
		return
	}
	if len(p.operands) > 0 {
		w.target(f, c.name, writes, p.operands[0])
		return
	}
	w.opaque("patch: targets come from the patch")
}

// applyPatch reads the files of a patch in the "*** Begin Patch" envelope
// given on a here-document (Codex applies `apply_patch <<'EOF' … EOF` itself,
// and no after-tool event follows): each is a target, relative to the
// command's directory.
func (w *walker) applyPatch(c *call) {
	if !c.in.fed || c.in.text == "" {
		w.opaque(c.name + ": the patch does not come from a here-document")
		return
	}
	files, err := patchfmt.Files(c.in.text)
	if err != nil {
		w.opaque(c.name + ": " + err.Error())
		return
	}
	for _, f := range files {
		e := writes
		if f.Op == patchfmt.Delete {
			e = deletes
		}
		w.target(c.f, c.name, e, literal(f.Path))
	}
}

// sql finds statements that destroy data in a database client's arguments or here-document.
func (w *walker) sql(c *call) {
	var text strings.Builder
	text.WriteString(c.in.text)
	for _, a := range c.args {
		text.WriteString(" " + a.text + " " + a.raw)
	}
	if found := destroysData(text.String()); found != "" {
		w.destructive(fmt.Sprintf("%s (SQL %s)", c.text(), found))
	}
}

// destroysData returns the first DROP TABLE, DROP DATABASE or TRUNCATE in sql, or "".
func destroysData(sql string) string {
	words := strings.FieldsFunc(strings.ToUpper(sql), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	})
	for i, word := range words {
		switch {
		case word == "TRUNCATE":
			return word
		case word == "DROP" && i+1 < len(words) && (words[i+1] == "TABLE" || words[i+1] == "DATABASE"):
			return word + " " + words[i+1]
		}
	}
	return ""
}

// recursiveMode is chmod, chown and chgrp: recursive changes of ownership or mode are destructive.
func (w *walker) recursiveMode(c *call) {
	if (options{long: []string{"reference"}}).parse(c.args).has("R", "recursive") {
		w.destructive(c.text())
	}
}

// kill -9 -1 kills every process the user may signal.
func (w *walker) kill(c *call) {
	signal, pids := "TERM", c.args
	if len(pids) > 0 && pids[0].literal && strings.HasPrefix(pids[0].text, "-") {
		switch flag := pids[0].text; flag {
		case "--":
			pids = pids[1:]
		case "-s", "-n", "--signal":
			if len(pids) > 1 {
				signal, pids = pids[1].text, pids[2:]
			}
		default:
			signal, pids = flag[1:], pids[1:]
		}
	}
	if len(pids) > 0 && pids[0].literal && pids[0].text == "--" {
		pids = pids[1:]
	}
	signal = strings.TrimPrefix(strings.ToUpper(signal), "SIG")
	everyone := slices.ContainsFunc(pids, func(a arg) bool { return a.literal && a.text == "-1" })
	if (signal == "9" || signal == "KILL") && everyone {
		w.destructive(c.text())
	}
}
