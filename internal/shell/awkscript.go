package shell

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// An awk program writes the files its print and printf statements redirect to (print > "f",
// print >> "f") and runs commands through system(), a pipe (print | "cmd", "cmd" | getline,
// gawk's |&) and gawk's indirect calls and @load. The program is read token by token, enough
// to tell a redirection from a comparison: `print a > "f"` writes f, `print (a > b)` and
// `if (a > b)` compare.

// awkEffects is what an awk program does besides printing to standard output.
type awkEffects struct {
	writes  []string // files print and printf redirect to
	runs    string   // how it runs a command: "system()", "a pipe", "an indirect call", "@load"
	unknown string   // why a file it writes cannot be named, if one cannot
}

type awkToken struct {
	kind byte // 'n' name, '1' number, 's' string, 'r' regex, 'h' hole, ';' a statement's end, else the operator's first byte
	text string
}

// awkRead reads an awk program.
func awkRead(s string) (e awkEffects) {
	toks := awkTokens(s)
	depth, printAt := 0, -1
	for i := 0; i < len(toks) && e.runs == "" && e.unknown == ""; i++ {
		t := toks[i]
		switch {
		case t.kind == ';' || t.text == "{" || t.text == "}":
			printAt = -1
		case t.text == "(" || t.text == "[":
			depth++
		case t.text == ")" || t.text == "]":
			depth--
		case t.kind == 'n' && (t.text == "print" || t.text == "printf"):
			printAt = depth
		case t.kind == 'n' && t.text == "system" && i+1 < len(toks) && toks[i+1].text == "(":
			e.runs = "system()"
		case t.text == "|" || t.text == "|&":
			e.runs = "a pipe"
		case t.text == "@":
			if i+1 < len(toks) && toks[i+1].text == "load" {
				e.runs = "@load"
			} else if i+1 < len(toks) && toks[i+1].text == "include" {
				e.runs = "@include"
			} else if i+1 >= len(toks) || toks[i+1].text != "namespace" {
				e.runs = "an indirect call"
			}
		case (t.text == ">" || t.text == ">>") && printAt >= 0 && depth == printAt:
			end := i + 1
			for end < len(toks) && toks[end].kind != ';' && toks[end].text != "}" && toks[end].text != "|" {
				end++
			}
			dest := toks[i+1 : end]
			switch {
			case len(dest) == 1 && dest[0].kind == 's' && strings.IndexByte(dest[0].text, hole) < 0:
				e.writes = append(e.writes, dest[0].text)
			default:
				e.unknown = "print to a file named at run time"
			}
			i = end - 1
			printAt = -1
		}
	}
	return e
}

// awkTokens splits an awk program into the tokens awkRead needs.
func awkTokens(s string) []awkToken {
	var toks []awkToken
	regexOK := func() bool {
		if len(toks) == 0 {
			return true
		}
		switch last := toks[len(toks)-1]; last.kind {
		case 'n':
			return awkKeyword(last.text)
		case '1', 's', 'r', 'h':
			return false
		default:
			return last.text != ")" && last.text != "]" && last.text != "$" && last.text != "++" && last.text != "--"
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i += 2
		case c == '\n' || c == ';':
			toks = append(toks, awkToken{kind: ';'})
			i++
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '"':
			var b strings.Builder
			i++
			for i < len(s) && s[i] != '"' {
				if s[i] == '\\' && i+1 < len(s) {
					i++
					switch s[i] {
					case 'n':
						b.WriteByte('\n')
					case 't':
						b.WriteByte('\t')
					default:
						b.WriteByte(s[i])
					}
				} else {
					b.WriteByte(s[i])
				}
				i++
			}
			i++
			toks = append(toks, awkToken{kind: 's', text: b.String()})
		case c == '/' && regexOK():
			i++
			for i < len(s) && s[i] != '/' && s[i] != '\n' {
				switch {
				case s[i] == '\\':
					i += 2
				case s[i] == '[':
					i = bracketEnd(s, i)
				default:
					i++
				}
			}
			i++
			toks = append(toks, awkToken{kind: 'r'})
		case c == hole:
			toks = append(toks, awkToken{kind: 'h'})
			i++
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i + 1
			for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9' || s[j] == ':') {
				j++
			}
			toks = append(toks, awkToken{kind: 'n', text: s[i:j]})
			i = j
		case c >= '0' && c <= '9' || c == '.':
			j := i + 1
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || s[j] == 'e' || s[j] == 'x' || s[j] >= 'a' && s[j] <= 'f' || s[j] >= 'A' && s[j] <= 'F') {
				j++
			}
			toks = append(toks, awkToken{kind: '1'})
			i = j
		default:
			op := string(c)
			if i+1 < len(s) {
				switch two := s[i : i+2]; two {
				case ">>", "|&", "||", "&&", "==", "!=", "<=", ">=", "++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "**":
					op = two
				}
			}
			toks = append(toks, awkToken{kind: op[0], text: op})
			i += len(op)
		}
	}
	return toks
}

// awkKeyword reports the keywords after which a slash starts a regex, not a division.
func awkKeyword(name string) bool {
	switch name {
	case "print", "printf", "return", "in", "case", "if", "while", "for", "do", "else", "getline":
		return true
	}
	return false
}

// awk runs its program: the files it prints to are written, a program that runs commands is
// opaque, and so is one in a file (-f), whose text the hook cannot see. gawk's -i inplace
// writes the input files; --sandbox forbids commands and redirections. gawk's -d, -p and -o
// write their reports (awkvars.out, awkprof.out by default).
func (w *walker) awk(c *call) {
	p := options{
		short:    "fvFiElWe",
		attached: "dpoDL",
		long:     []string{"file", "assign", "field-separator", "include", "load", "exec", "source"},
	}.parse(c.args)
	sandboxed := p.has("S", "sandbox")
	inPlace := false
	var programs []arg
	for _, o := range p.opts {
		switch {
		case isNamed(o.name, []string{"e", "source"}):
			programs = append(programs, o.value)
		case isNamed(o.name, []string{"i", "include"}):
			if o.value.literal && (o.value.text == "inplace" || o.value.text == "inplace.awk") {
				inPlace = true
			} else {
				w.opaque(fmt.Sprintf("%s -i loads a library, which may run commands: %s", c.name, o.value.raw))
			}
		case isNamed(o.name, []string{"l", "load"}):
			w.opaque(fmt.Sprintf("%s -l loads an extension: %s", c.name, o.value.raw))
		case o.name == "W" && (!o.value.literal || strings.HasPrefix(o.value.text, "e")):
			w.opaque(fmt.Sprintf("%s -W %s runs a program file", c.name, o.value.raw))
		case isNamed(o.name, []string{"d", "dump-variables"}):
			w.target(c.f, c.name, writes, cmpOr(o.value, "awkvars.out"))
		case isNamed(o.name, []string{"p", "profile", "o", "pretty-print"}):
			w.target(c.f, c.name, writes, cmpOr(o.value, "awkprof.out"))
		}
	}
	operands := p.operands
	file, fromFile := p.value("f", "file", "E", "exec")
	if !fromFile && len(programs) == 0 && len(operands) > 0 {
		programs, operands = operands[:1], operands[1:]
	}
	if !sandboxed {
		if fromFile {
			w.opaque(fmt.Sprintf("%s -f runs a program file, which may run commands: %s", c.name, file.raw))
		}
		for _, prog := range programs {
			e := awkRead(scriptText(prog))
			switch {
			case e.runs != "":
				w.opaque(fmt.Sprintf("%s program runs commands (%s): %s", c.name, e.runs, prog.raw))
			case e.unknown != "":
				w.opaque(fmt.Sprintf("%s program can %s: %s", c.name, e.unknown, prog.raw))
			}
			for _, name := range e.writes {
				if name != "-" {
					w.target(c.f, c.name, writes, literal(name))
				}
			}
		}
	}
	if !inPlace {
		return
	}
	for _, a := range operands {
		if name, _, ok := strings.Cut(a.text, "="); a.literal && (a.text == "-" || ok && syntax.ValidName(name)) {
			continue // stdin, or an assignment
		}
		w.target(c.f, c.name, writes, a)
	}
}

// cmpOr is an optional value, or the name a program uses when none is given.
func cmpOr(value arg, otherwise string) arg {
	if value.literal && value.text == "" {
		return literal(otherwise)
	}
	return value
}
