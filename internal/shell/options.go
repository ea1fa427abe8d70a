package shell

import (
	"slices"
	"strings"
)

// options describes the options of a program that take a value, so that the value is not taken
// for an operand. Options not listed are flags without a value.
type options struct {
	short    string   // letters whose value is attached or the next word: -tDIR, -t DIR
	attached string   // letters whose optional value can only be attached: -i.bak
	long     []string // long names whose value may be the next word: --target-directory DIR
	// switches are long names that never take a value, matched whole before any
	// abbreviation of a long name: npx's --no is no --node-options.
	switches []string
}

// option is one option as given, without its dashes. A flag without a value has an empty one.
type option struct {
	name  string
	value arg
}

// parsed is a command's words split into options and operands.
type parsed struct {
	opts     []option
	operands []arg
}

// parse splits args the GNU way: options may follow operands, clusters like -rf hold several
// letters, and `--` ends the options. A word that is not literal is an operand, unless its
// literal start is an option's (--output=$HOME/x, -o"$F"): then it is that option with a value
// the text cannot pin down.
func (o options) parse(args []arg) parsed {
	var p parsed
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !a.literal && isOptionLead(a.lead):
			i += o.expanded(&p, a, args[i+1:])
		case !isOption(a):
			p.operands = append(p.operands, a)
		case a.text == "--":
			p.operands = append(p.operands, args[i+1:]...)
			return p
		case strings.HasPrefix(a.text, "--"):
			i += o.long1(&p, a.text[2:], args[i+1:])
		default:
			i += o.cluster(&p, a.text[1:], args[i+1:])
		}
	}
	return p
}

// long1 adds the long option text (dashes removed) and returns how many following words it took.
// An abbreviation of a listed option is that option (GNU getopt_long, git and argparse take any
// unambiguous prefix): --out FILE is --output FILE. The shell expands no tilde in --opt=~/x: the
// program gets ~/x, a path relative to its directory.
func (o options) long1(p *parsed, text string, next []arg) int {
	name, value, hasValue := strings.Cut(text, "=")
	if !hasValue && slices.Contains(o.switches, name) {
		p.opts = append(p.opts, option{name, literal("")})
		return 0
	}
	if full, ok := abbreviated(name, o.long); ok {
		name = full
		if !hasValue && len(next) > 0 {
			p.opts = append(p.opts, option{name, next[0]})
			return 1
		}
	}
	if hasValue {
		p.opts = append(p.opts, option{name, literal(value)})
	} else {
		p.opts = append(p.opts, option{name, literal("")})
	}
	return 0
}

// longMatch reports whether a long option as given (dashes and any =value removed) names the
// listed option: the whole name, or a prefix of it of two or more characters. Programs accept
// different abbreviations (GNU and BSD tools, git, argparse): any prefix counts, whether or not
// the real program would find it ambiguous, since a program that refuses it does no harm.
func longMatch(given, listed string) bool {
	return given == listed || (len(given) >= 2 && len(given) < len(listed) && strings.HasPrefix(listed, given))
}

// abbreviated returns the listed option that given names: one spelt in full first, then the
// first the given one abbreviates.
func abbreviated(given string, listed []string) (string, bool) {
	if slices.Contains(listed, given) {
		return given, true
	}
	for _, l := range listed {
		if longMatch(given, l) {
			return l, true
		}
	}
	return "", false
}

// isOptionLead reports whether the literal start of a word that is not literal makes it an
// option: a dash and a letter at least.
func isOptionLead(lead string) bool {
	return len(lead) > 1 && lead[0] == '-' && lead != "--"
}

// expanded adds an option word whose value holds an expansion (--output=$HOME/x, -o"$F") and
// returns how many following words it took. The option's name lies in its literal start.
func (o options) expanded(p *parsed, a arg, next []arg) int {
	if text, ok := strings.CutPrefix(a.lead, "--"); ok {
		name, _, hasValue := strings.Cut(text, "=")
		if !hasValue {
			// --"$NAME": not even the option is known
			p.operands = append(p.operands, a)
			return 0
		}
		if full, ok := abbreviated(name, o.long); ok {
			name = full
		}
		p.opts = append(p.opts, option{name, rest(a, len("--"+name+"="))})
		return 0
	}
	letters := a.lead[1:]
	for j := 0; j < len(letters); j++ {
		name := letters[j : j+1]
		if strings.Contains(o.short, name) || strings.Contains(o.attached, name) {
			p.opts = append(p.opts, option{name, rest(a, 2+j)})
			return 0
		}
		p.opts = append(p.opts, option{name, literal("")})
	}
	// -x$V: the last letters arrive at run time
	p.opts = append(p.opts, option{"", arg{raw: a.raw}})
	return 0
}

// rest is what follows the first n bytes of the literal start of a word that is not literal:
// an option's value that the text cannot pin down.
func rest(a arg, n int) arg {
	raw := a.raw
	if len(a.lead) <= len(raw) && strings.HasPrefix(raw, a.lead) && n <= len(raw) {
		raw = raw[n:]
	}
	return arg{raw: raw, feed: a.feed}
}

// cluster adds the letters of a short option cluster and returns how many following words it took.
func (o options) cluster(p *parsed, letters string, next []arg) int {
	for j := 0; j < len(letters); j++ {
		name, rest := letters[j:j+1], letters[j+1:]
		switch {
		case strings.Contains(o.short, name) && rest != "":
			p.opts = append(p.opts, option{name, literal(rest)})
			return 0
		case strings.Contains(o.short, name) && len(next) > 0:
			p.opts = append(p.opts, option{name, next[0]})
			return 1
		case strings.Contains(o.attached, name):
			p.opts = append(p.opts, option{name, literal(rest)})
			return 0
		default:
			p.opts = append(p.opts, option{name, literal("")})
		}
	}
	return 0
}

// isOption reports whether a word is an option: literal and starting with a dash, but not "-",
// which names stdin.
func isOption(a arg) bool {
	return a.literal && len(a.text) > 1 && a.text[0] == '-'
}

// has reports whether any of the named options was given. A long name matches its
// abbreviations too (longMatch): --forc is --force.
func (p parsed) has(names ...string) bool {
	for _, o := range p.opts {
		if isNamed(o.name, names) {
			return true
		}
	}
	return false
}

// value returns the value of the last of the named options given, abbreviations included.
func (p parsed) value(names ...string) (arg, bool) {
	for i := len(p.opts) - 1; i >= 0; i-- {
		if isNamed(p.opts[i].name, names) {
			return p.opts[i].value, true
		}
	}
	return arg{}, false
}

// isNamed reports whether an option as given is one of names: a letter exactly, a long name
// whole or abbreviated.
func isNamed(given string, names []string) bool {
	for _, n := range names {
		if given == n || (len(n) > 1 && longMatch(given, n)) {
			return true
		}
	}
	return false
}

// leading returns the words after the options that lead a wrapped command, like the `-u root` in
// `sudo -u root rm x`: options stop at the first operand or `--`. It also returns the options.
func (o options) leading(args []arg) (parsed, []arg) {
	var p parsed
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !a.literal && isOptionLead(a.lead):
			i += o.expanded(&p, a, args[i+1:])
		case !isOption(a):
			return p, args[i:]
		case a.text == "--":
			return p, args[i+1:]
		case strings.HasPrefix(a.text, "--"):
			i += o.long1(&p, a.text[2:], args[i+1:])
		default:
			i += o.cluster(&p, a.text[1:], args[i+1:])
		}
	}
	return p, nil
}
