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
// letters, and `--` ends the options. A word that is not literal is always an operand.
func (o options) parse(args []arg) parsed {
	var p parsed
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
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
func (o options) long1(p *parsed, text string, next []arg) int {
	name, value, hasValue := strings.Cut(text, "=")
	switch {
	case hasValue:
		p.opts = append(p.opts, option{name, assigned(value)})
	case slices.Contains(o.long, name) && len(next) > 0:
		p.opts = append(p.opts, option{name, next[0]})
		return 1
	default:
		p.opts = append(p.opts, option{name, literal("")})
	}
	return 0
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

// has reports whether any of the named options was given.
func (p parsed) has(names ...string) bool {
	for _, o := range p.opts {
		if slices.Contains(names, o.name) {
			return true
		}
	}
	return false
}

// value returns the value of the last of the named options given.
func (p parsed) value(names ...string) (arg, bool) {
	for i := len(p.opts) - 1; i >= 0; i-- {
		if slices.Contains(names, p.opts[i].name) {
			return p.opts[i].value, true
		}
	}
	return arg{}, false
}

// leading returns the words after the options that lead a wrapped command, like the `-u root` in
// `sudo -u root rm x`: options stop at the first operand or `--`. It also returns the options.
func (o options) leading(args []arg) (parsed, []arg) {
	var p parsed
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
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
