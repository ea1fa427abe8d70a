package shell

import (
	"fmt"
	"strings"
)

// A sed script can write files of its own (w, W, s///w) and run commands (e, s///e): both are
// read from the script text. Only what the text spells out is read; an expansion in the script
// stands for text the hook cannot see (hole), which is harmless in a regular expression or a
// replacement and makes the script opaque where it could name a command, a flag or a file.

// sed writes its files with -i and the files its script names (w, W, s///w), shows them with
// -n, and otherwise only prints. A script that runs commands (e, s///e), or one in a file
// (-f, which the text cannot show), is opaque; --sandbox forbids both.
func (w *walker) sed(c *call) {
	p := options{short: "efl", attached: "i", long: []string{"expression", "file", "line-length"}}.parse(c.args)
	files := p.operands
	inPlace := p.has("i", "in-place")
	if inPlace && len(files) > 0 && files[0].literal && files[0].text == "" {
		files = files[1:] // BSD sed: -i '' is an empty backup suffix
	}
	var scripts []arg
	for _, o := range p.opts {
		if isNamed(o.name, []string{"e", "expression"}) {
			scripts = append(scripts, o.value)
		}
	}
	file, fromFile := p.value("f", "file")
	if len(scripts) == 0 && !fromFile && len(files) > 0 {
		scripts, files = files[:1], files[1:]
	}
	if !p.has("sandbox") {
		if fromFile {
			w.opaque(fmt.Sprintf("%s -f runs a script file, which may run commands: %s", c.name, file.raw))
		}
		w.sedScript(c, scripts)
	}
	switch {
	case inPlace:
		w.targets(c, writes, files)
	case p.has("n", "quiet", "silent"):
		for _, a := range files {
			w.viewed(c.f, a)
		}
	}
}

// sedScript reports what sed's script words do besides editing: the files they write, the
// commands they run.
func (w *walker) sedScript(c *call, scripts []arg) {
	if len(scripts) == 0 {
		return
	}
	texts := make([]string, len(scripts))
	raws := make([]string, len(scripts))
	for i, s := range scripts {
		texts[i], raws[i] = scriptText(s), s.raw
	}
	e := sedRead(strings.Join(texts, "\n"))
	switch {
	case e.runs != "":
		w.opaque(fmt.Sprintf("%s script runs commands (%s): %s", c.name, e.runs, strings.Join(raws, " ")))
		return
	case e.unknown != "":
		w.opaque(fmt.Sprintf("%s script cannot be read (%s): %s", c.name, e.unknown, strings.Join(raws, " ")))
		return
	}
	for _, name := range e.writes {
		w.target(c.f, c.name, writes, literal(name))
	}
}

// scriptText is the text of a script word as far as the hook can read it: an expansion in it
// is a hole.
func scriptText(a arg) string {
	switch {
	case a.word != nil:
		return sketch(a.word)
	case !a.literal:
		return string(hole) // an option's value cut out of a word that is not literal
	}
	return a.text
}

// hole stands in a script's text for a part the shell expands at run time.
const hole = '\x00'

// sedEffects is what a sed script does besides editing its stream.
type sedEffects struct {
	writes  []string // files its w and W commands and s///w flags write
	runs    string   // the command or flag that runs a command ("e", "s///e"), if any
	unknown string   // why the script could not be read, if it could not
}

// sedRead reads a sed script.
func sedRead(s string) (e sedEffects) {
	r := sedReader{s: s}
	for !r.done() && e.unknown == "" && e.runs == "" {
		r.command(&e)
	}
	return e
}

type sedReader struct {
	s string
	i int
}

func (r *sedReader) done() bool { return r.i >= len(r.s) }

func (r *sedReader) peek() byte {
	if r.done() {
		return 0
	}
	return r.s[r.i]
}

func (r *sedReader) blanks() {
	for !r.done() && (r.s[r.i] == ' ' || r.s[r.i] == '\t') {
		r.i++
	}
}

// toEOL returns the rest of the line (a file name, a command, a label) and moves past it.
func (r *sedReader) toEOL() string {
	end := strings.IndexByte(r.s[r.i:], '\n')
	if end < 0 {
		end = len(r.s) - r.i
	}
	t := r.s[r.i : r.i+end]
	r.i += end
	return t
}

// command reads one command with its addresses.
func (r *sedReader) command(e *sedEffects) {
	for !r.done() && strings.IndexByte(" \t\n;", r.s[r.i]) >= 0 {
		r.i++
	}
	if r.done() {
		return
	}
	if r.peek() == '#' {
		r.toEOL()
		return
	}
	if !r.address() {
		e.unknown = "an address that does not end"
		return
	}
	r.blanks()
	if r.peek() == ',' {
		r.i++
		r.blanks()
		if !r.address() {
			e.unknown = "an address that does not end"
			return
		}
	}
	r.blanks()
	for r.peek() == '!' {
		r.i++
		r.blanks()
	}
	if r.done() {
		e.unknown = "an address without a command"
		if r.i > 0 && r.s[r.i-1] == hole {
			e.unknown = "a command the shell fills in at run time"
		}
		return
	}
	c := r.s[r.i]
	r.i++
	switch c {
	case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
	case 'l', 'L', 'q', 'Q':
		r.blanks()
		for !r.done() && (r.s[r.i] >= '0' && r.s[r.i] <= '9' || r.s[r.i] == hole) {
			r.i++
		}
	case ':':
		r.blanks()
		r.label()
	case 'b', 't', 'T', 'v':
		r.blanks()
		r.label()
	case 'a', 'i', 'c':
		r.text()
	case 'r', 'R':
		r.blanks()
		r.toEOL()
	case 'w', 'W':
		r.blanks()
		r.file(e, string(c))
	case 'e':
		e.runs = "e"
	case 's':
		r.substitute(e)
	case 'y':
		d, ok := r.delimiter()
		if !ok || !r.part(d, false) || !r.part(d, false) {
			e.unknown = "a y command that does not end"
		}
	default:
		if c == hole {
			e.unknown = "a command the shell fills in at run time"
		} else {
			e.unknown = fmt.Sprintf("unknown command %q", c)
		}
	}
}

// address reads an address, if one is there: a line number, first~step, $, /regex/, \cregexc,
// +N or ~N after a comma, with I and M after a regex. An expansion counts as an address
// (sed -n "${N}p"). It fails on a regex that does not end.
func (r *sedReader) address() bool {
	switch c := r.peek(); {
	case c >= '0' && c <= '9' || c == hole || c == '+' || c == '~':
		r.i++
		for !r.done() && (r.s[r.i] >= '0' && r.s[r.i] <= '9' || r.s[r.i] == '~' || r.s[r.i] == hole) {
			r.i++
		}
	case c == '$':
		r.i++
	case c == '/':
		r.i++
		if !r.part('/', true) {
			return false
		}
		r.regexFlags()
	case c == '\\':
		r.i++
		d, ok := r.delimiter()
		if !ok || !r.part(d, true) {
			return false
		}
		r.regexFlags()
	}
	return true
}

func (r *sedReader) regexFlags() {
	for r.peek() == 'I' || r.peek() == 'M' {
		r.i++
	}
}

// delimiter reads the delimiter of s, y or \c: any character but a newline or a backslash.
func (r *sedReader) delimiter() (byte, bool) {
	if r.done() || r.s[r.i] == '\n' || r.s[r.i] == '\\' {
		return 0, false
	}
	d := r.s[r.i]
	r.i++
	return d, true
}

// part reads up to and past the delimiter d: a regex (where a bracket expression may hold d)
// or a replacement. It reports whether the delimiter was found.
func (r *sedReader) part(d byte, regex bool) bool {
	for !r.done() {
		c := r.s[r.i]
		switch {
		case c == '\\':
			r.i += 2
			continue
		case c == d:
			r.i++
			return true
		case c == '\n' && !regex:
			// a newline in a replacement must be escaped
			return false
		case regex && c == '[' && d != '[':
			r.i = bracketEnd(r.s, r.i)
			continue
		}
		r.i++
	}
	return false
}

// bracketEnd returns the index after the bracket expression that starts at s[i] == '[', or
// i+1 when it does not close (then it is a plain character).
func bracketEnd(s string, i int) int {
	j := i + 1
	if j < len(s) && s[j] == '^' {
		j++
	}
	if j < len(s) && s[j] == ']' {
		j++ // a ] first is a member
	}
	for j < len(s) {
		switch {
		case s[j] == '[' && j+1 < len(s) && strings.IndexByte(":.=", s[j+1]) >= 0:
			// [:alpha:], [.x.], [=x=]
			end := strings.Index(s[j+2:], string(s[j+1])+"]")
			if end < 0 {
				return i + 1
			}
			j += 2 + end + 2
		case s[j] == ']':
			return j + 1
		case s[j] == '\n':
			return i + 1
		default:
			j++
		}
	}
	return i + 1
}

// substitute reads s/regex/replacement/flags.
func (r *sedReader) substitute(e *sedEffects) {
	d, ok := r.delimiter()
	if !ok || !r.part(d, true) || !r.part(d, false) {
		e.unknown = "an s command that does not end"
		return
	}
	for !r.done() {
		switch c := r.s[r.i]; {
		case c == 'g' || c == 'p' || c == 'i' || c == 'I' || c == 'm' || c == 'M' || c >= '0' && c <= '9':
			r.i++
		case c == 'e':
			e.runs = "s///e"
			return
		case c == 'w':
			r.i++
			r.blanks()
			r.file(e, "s///w")
			return
		case c == hole:
			e.unknown = "s flags the shell fills in at run time"
			return
		default:
			return // ;, }, a newline, a blank: the command ends
		}
	}
}

// file reads the file name of w, W or s///w: the rest of the line, taken as it is (sed expands
// no ~ in it).
func (r *sedReader) file(e *sedEffects, who string) {
	name := r.toEOL()
	switch {
	case name == "":
		e.unknown = who + " without a file"
	case strings.IndexByte(name, hole) >= 0:
		e.unknown = who + " to a file the shell names at run time"
	default:
		e.writes = append(e.writes, name)
	}
}

// label skips a label: up to a newline or a semicolon (GNU sed ends labels there too).
func (r *sedReader) label() {
	for !r.done() && r.s[r.i] != '\n' && r.s[r.i] != ';' {
		r.i++
	}
}

// text skips the text of a, i and c: the rest of the line, and the lines a trailing
// backslash continues.
func (r *sedReader) text() {
	for !r.done() {
		c := r.s[r.i]
		switch {
		case c == '\\' && r.i+1 < len(r.s):
			r.i += 2
		case c == '\n':
			return
		default:
			r.i++
		}
	}
}
