package shell

import (
	"fmt"
	"path"
	"strings"
)

// Programs that write files named by an option or an operand besides their main job: sort -o,
// uniq's output, archivers, recorders, gh's downloads, virtual environments, rename.

// sort writes the file of -o/--output; --compress-program runs a program of the command's choosing.
func (w *walker) sort(c *call) {
	p := options{
		short: "kostST",
		long: []string{"output", "key", "field-separator", "buffer-size", "temporary-directory",
			"compress-program", "parallel", "batch-size", "files0-from", "random-source", "sort"},
	}.parse(c.args)
	if prog, ok := p.value("compress-program"); ok {
		w.opaque(fmt.Sprintf("%s --compress-program runs a program: %s", c.name, prog.raw))
	}
	if out, ok := p.value("o", "output"); ok && out.text != "-" {
		w.target(c.f, c.name, writes, out)
	}
}

// uniq writes its second operand: uniq INPUT OUTPUT.
func (w *walker) uniq(c *call) {
	p := options{short: "fsw", long: []string{"skip-fields", "skip-chars", "check-chars"}}.parse(c.args)
	if len(p.operands) > 1 && p.operands[1].text != "-" {
		w.target(c.f, c.name, writes, p.operands[1])
	}
}

// tarOptions are tar's options with values; GNU and BSD tar share the letters that matter.
var tarOptions = options{
	short: "bCfFgHIKLNTVX",
	long: []string{"file", "directory", "use-compress-program", "to-command", "info-script",
		"new-volume-script", "checkpoint-action", "rsh-command", "rmt-command", "blocking-factor",
		"files-from", "exclude", "exclude-from", "listed-incremental", "format", "label",
		"starting-file", "newer", "newer-mtime", "after-date", "transform", "xform", "owner", "group",
		"mode", "mtime", "tape-length", "volno-file", "index-file", "record-size", "strip-components"},
}

// harmlessCompressors are the programs tar -I and sort --compress-program are usually given.
func harmlessCompressor(a arg) bool {
	if !a.literal {
		return false
	}
	first, _, _ := strings.Cut(strings.TrimSpace(a.text), " ")
	switch path.Base(first) {
	case "gzip", "gunzip", "pigz", "bzip2", "pbzip2", "lbzip2", "xz", "pixz", "zstd", "unzstd",
		"lz4", "lzip", "plzip", "lzma", "lzop", "brotli":
		return true
	}
	return false
}

// tar writes its archive when it creates or adds to one, and writes the files an archive holds
// when it extracts: their names come from the archive, so extracting is opaque. Its options can
// run programs (-I, --to-command, --checkpoint-action=exec, -F).
func (w *walker) tar(c *call) {
	args := c.args
	if len(args) > 0 && args[0].literal && args[0].text != "" && !strings.HasPrefix(args[0].text, "-") {
		// The old style: `tar czf h.tgz dir` is `tar -c -z -f h.tgz dir`.
		args = append([]arg{literal("-" + args[0].text)}, args[1:]...)
	}
	p := tarOptions.parse(args)
	for _, name := range []string{"I", "use-compress-program"} {
		if prog, ok := p.value(name); ok && !harmlessCompressor(prog) {
			w.opaque(fmt.Sprintf("%s %s runs a program: %s", c.name, dashed(name), prog.raw))
		}
	}
	for _, name := range []string{"to-command", "info-script", "new-volume-script", "rsh-command", "rmt-command", "F"} {
		if prog, ok := p.value(name); ok {
			w.opaque(fmt.Sprintf("%s %s runs a program: %s", c.name, dashed(name), prog.raw))
		}
	}
	if action, ok := p.value("checkpoint-action"); ok && (!action.literal || strings.HasPrefix(action.text, "exec")) {
		w.opaque(fmt.Sprintf("%s --checkpoint-action runs a program: %s", c.name, action.raw))
	}
	f := c.f
	if dir, ok := p.value("C", "directory"); ok {
		f = f.subshell()
		f.cd(dir)
	}
	archive, named := p.value("f", "file")
	switch {
	case p.has("x", "extract", "get"):
		if p.has("O", "to-stdout", "to-command") {
			return
		}
		if dir, ok := p.value("C", "directory"); ok {
			w.target(c.f, c.name, writes, dir)
		}
		w.opaque(c.name + " -x writes the files the archive names")
	case p.has("c", "create", "r", "append", "u", "update", "A", "catenate", "concatenate", "delete"):
		if named && archive.text != "-" {
			w.target(c.f, c.name, writes, archive)
		}
		if p.has("remove-files") {
			w.targets(&call{f: f, prog: c.prog, name: c.name}, deletes, p.operands)
		}
	}
}

// dashed spells an option's name as given on a command line: -F, --to-command.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// zip writes its archive, the first operand (with .zip added to a name without a suffix), and
// a log file or another output file when told; -m deletes the files it archived; -TT runs the
// test command it names. Some of its options are words, not letters: -tt, -lf, -TT.
func (w *walker) zip(c *call) {
	var zipfile *arg
	var inputs []arg
	moving := false
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		if !isOption(a) {
			if zipfile == nil {
				zipfile = &c.args[i]
			} else {
				inputs = append(inputs, a)
			}
			continue
		}
		name, value, hasValue := strings.Cut(a.text, "=")
		long, ok := strings.CutPrefix(name, "--")
		if !ok {
			long = ""
		}
		switch {
		case name == "-x" || name == "-i" || longMatch(long, "exclude") || longMatch(long, "include"):
			for i+1 < len(c.args) && !isOption(c.args[i+1]) {
				i++ // patterns, up to the next option
			}
			continue
		case longMatch(long, "move") || (long == "" && !zipWord(name) && strings.Contains(name, "m")):
			moving = true
		}
		var v arg
		switch {
		case long != "" && hasValue:
			v = literal(value)
		case (zipValued(name) || (long != "" && isZipValued(long))) && i+1 < len(c.args):
			i++
			v = c.args[i]
		default:
			continue
		}
		switch {
		case name == "-TT" || longMatch(long, "unzip-command"):
			w.opaque(fmt.Sprintf("%s %s runs a program: %s", c.name, name, v.raw))
		case name == "-O" || name == "-lf" || longMatch(long, "output-file") || longMatch(long, "logfile-path"):
			if v.text != "-" {
				w.target(c.f, c.name, writes, v)
			}
		}
	}
	if zipfile != nil && zipfile.text != "-" {
		z := *zipfile
		if z.literal && !strings.Contains(path.Base(z.text), ".") {
			z.text += ".zip"
			z.raw += ".zip"
		}
		w.target(c.f, c.name, writes, z)
	}
	if moving {
		w.targets(c, deletes, inputs)
	}
}

// zipValued reports zip's options that take the next word as their value.
// (Switches, not maps: nothing to build at every start.)
func zipValued(name string) bool {
	switch name {
	case "-b", "-n", "-t", "-tt", "-Z", "-P", "-O", "-s", "-ds", "-lf", "-TT":
		return true
	}
	return false
}

// zipWord reports zip's options of more than one letter, which are no cluster of letters.
func zipWord(name string) bool {
	switch name {
	case "-tt", "-TT", "-lf", "-la", "-li", "-ll", "-ds", "-db", "-dc", "-dd", "-dg", "-du", "-dv",
		"-sb", "-sc", "-sd", "-so", "-sp", "-sv", "-ws", "-FS", "-MM", "-nw", "-ic":
		return true
	}
	return false
}

// isZipValued reports the long options of zip that take a value.
func isZipValued(name string) bool {
	for _, l := range []string{"output-file", "logfile-path", "unzip-command", "temp-path", "suffixes",
		"from-date", "before-date", "compression-method", "password", "split-size", "la"} {
		if longMatch(name, l) {
			return true
		}
	}
	return false
}

// scriptOptions are script's options with values (util-linux and BSD).
var scriptOptions = options{
	short: "cEIOBTmoFt",
	long:  []string{"command", "echo", "log-in", "log-out", "log-io", "log-timing", "logging-format", "output-limit"},
}

// recorder is script(1): it records a terminal session: it writes its log file (typescript when none is named)
// and runs the -c command, or, the BSD way, the command after the file.
func (w *walker) recorder(c *call) {
	p, rest := scriptOptions.leading(c.args)
	logged := false
	for _, name := range []string{"I", "O", "B", "log-in", "log-out", "log-io", "T", "log-timing"} {
		if out, ok := p.value(name); ok && out.text != "" {
			w.target(c.f, c.name, writes, out)
			logged = true
		}
	}
	if len(rest) > 0 {
		w.target(c.f, c.name, writes, rest[0])
		logged = true
		rest = rest[1:]
	}
	if !logged {
		w.target(c.f, c.name, writes, literal("typescript"))
	}
	if cmd, ok := p.value("c", "command"); ok {
		w.inline(&call{f: c.f, prog: c.prog, name: c.name}, cmd)
	}
	if len(rest) > 0 {
		w.run(c.f, rest, stdin{})
	}
}

// gh writes the file or directory its downloads name: -o/-O/--output, -D/--dir.
func (w *walker) gh(c *call) {
	p := options{
		short: "oODRLRtqjbBHSXFfpe",
		long:  []string{"output", "dir", "repo", "jq", "template", "hostname", "method", "field", "raw-field", "input", "header"},
	}.parse(c.args)
	for _, name := range []string{"o", "O", "output", "D", "dir"} {
		if out, ok := p.value(name); ok && out.text != "-" && out.text != "" {
			w.target(c.f, c.name, writes, out)
		}
	}
}

// venv is python -m venv and virtualenv: each directory operand is written; --clear empties it
// first, which is destructive.
func (w *walker) venv(c *call, who string, args []arg) {
	o := options{long: []string{"prompt", "clear", "upgrade"}}
	if strings.HasSuffix(who, "virtualenv") {
		o = options{
			short: "p",
			long: []string{"python", "prompt", "creator", "seeder", "activators", "app-data", "extra-search-dir",
				"pip", "setuptools", "wheel", "discovery", "try-first-with", "clear"},
		}
	}
	// Only the options with values matter to the parse; clear is listed to read its abbreviations.
	o.long = withoutFlag(o.long, "clear", "upgrade")
	p := o.parse(args)
	clearing := p.has("clear")
	for _, dir := range p.operands {
		if clearing {
			w.destructive(c.text())
			w.target(c.f, who, deletes, dir)
		}
		w.target(c.f, who, makesDir, dir)
	}
}

// withoutFlag drops the names that take no value from a list of long options.
func withoutFlag(list []string, flags ...string) []string {
	out := list[:0:0]
	for _, l := range list {
		keep := true
		for _, f := range flags {
			if l == f {
				keep = false
			}
		}
		if keep {
			out = append(out, l)
		}
	}
	return out
}

// rename renames files by an expression: util-linux's `rename FROM TO FILE…` replaces the first
// FROM in each name with TO; Perl's `rename 's/a/b/' FILE…` runs Perl code on each name, whose
// results the text cannot tell.
func (w *walker) rename(c *call) {
	p := options{short: "e", long: []string{"expr"}}.parse(c.args)
	if p.has("n", "no-act", "nono", "h", "help", "V", "version") || len(p.operands) == 0 {
		return
	}
	if _, ok := p.value("e", "expr"); ok || isPerlExpr(p.operands[0]) {
		files := p.operands
		if !ok {
			files = files[1:]
		}
		w.targets(c, deletes, files)
		w.opaque(c.name + ": the new names come from a Perl expression")
		return
	}
	if len(p.operands) < 3 {
		return
	}
	from, to := p.operands[0], p.operands[1]
	for _, file := range p.operands[2:] {
		w.target(c.f, c.name, deletes, file)
		if !file.literal || !from.literal || !to.literal {
			w.opaque(fmt.Sprintf("%s: the new name of %s is not a literal word", c.name, file.raw))
			continue
		}
		dir, base := path.Split(file.text)
		if p.has("a", "all") {
			base = strings.ReplaceAll(base, from.text, to.text)
		} else if p.has("l", "last") {
			if i := strings.LastIndex(base, from.text); i >= 0 {
				base = base[:i] + to.text + base[i+len(from.text):]
			}
		} else {
			base = strings.Replace(base, from.text, to.text, 1)
		}
		w.target(c.f, c.name, writes, literal(dir+base))
	}
}

// isPerlExpr reports whether rename's first operand is a Perl expression: s/…/…/, y/…/…/, tr/…/…/.
func isPerlExpr(a arg) bool {
	t := a.text
	if !a.literal {
		return true // cannot tell: the safe reading
	}
	for _, op := range []string{"s", "y", "tr"} {
		if rest, ok := strings.CutPrefix(t, op); ok && rest != "" {
			d := rest[0]
			if !(d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' || d >= '0' && d <= '9' || d == '_' || d == ' ') {
				return true
			}
		}
	}
	return strings.ContainsAny(t, ";$(){}")
}
