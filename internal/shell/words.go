package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// arg is one word of a command, as the analysis needs it.
type arg struct {
	text    string // the value the shell passes, quotes removed; meaningful when literal
	raw     string // the word as written, for messages
	literal bool   // no expansion can change it: no $, glob, brace or tilde
	name    string // the last path element of its literal tail, to recognise a program: /usr/bin/rm is rm
	feed    string // set on words whose value arrives at run time: "xargs", "find -exec"
	proc    bool   // the word is one process substitution <( ) or >( ): a pipe, not a file
	// lead is, for a word that is not literal, its literal start before the first expansion:
	// "--output=" of --output=$HOME/x.
	lead string
	word *syntax.Word // the parsed word, for the programs whose script is a word (sed, awk)
}

// word turns a parsed word into an arg, quoting it from the frame's source.
func (f *frame) word(word *syntax.Word) arg {
	if word == nil {
		return arg{literal: true}
	}
	a := arg{raw: f.quote(word), name: programName(word), word: word}
	a.text, a.literal = unquote(word)
	if !a.literal {
		a.lead = literalLead(word)
	}
	if len(word.Parts) == 1 {
		_, a.proc = word.Parts[0].(*syntax.ProcSubst)
	}
	return a
}

// literalLead returns the value of a word's literal parts before its first expansion.
func literalLead(word *syntax.Word) string {
	var b strings.Builder
	for i, part := range word.Parts {
		var one strings.Builder
		if !unquotePart(&one, part, i == 0) {
			break
		}
		b.WriteString(one.String())
	}
	return b.String()
}

// quote returns the source text of a node, or its literal value when positions are unusable.
func (f *frame) quote(word *syntax.Word) string {
	start, end := int(word.Pos().Offset()), int(word.End().Offset())
	if start < 0 || end > len(f.src) || start >= end {
		return word.Lit()
	}
	return f.src[start:end]
}

// literal makes an arg for text the analysis cut out of another word, like the DIR of --dir=DIR.
func literal(text string) arg {
	return arg{text: text, raw: text, literal: true}
}

// assigned is literal for the value after '=' in a word like of=FILE or --output=FILE, where
// bash expands a leading tilde.
func assigned(text string) arg {
	a := literal(text)
	a.literal = !strings.HasPrefix(text, "~")
	return a
}

// unquote returns the value the shell would pass for word, and false when an expansion (a
// parameter, a substitution, arithmetic, a glob, a brace or a tilde) could change it.
func unquote(word *syntax.Word) (string, bool) {
	var b strings.Builder
	for i, part := range word.Parts {
		if !unquotePart(&b, part, i == 0) {
			return "", false
		}
	}
	if hasBraceExpansion(word) {
		return "", false
	}
	return b.String(), true
}

// unquotePart writes the value of one literal part to b; first says whether it starts the word,
// where a tilde expands.
func unquotePart(b *strings.Builder, part syntax.WordPart, first bool) bool {
	switch p := part.(type) {
	case *syntax.Lit:
		if first && strings.HasPrefix(p.Value, "~") {
			return false
		}
		return unescapeBare(b, p.Value)
	case *syntax.SglQuoted:
		if p.Dollar && strings.Contains(p.Value, `\`) {
			return false // $'…' escapes: not worth decoding for a path
		}
		b.WriteString(p.Value)
		return true
	case *syntax.DblQuoted:
		for _, inner := range p.Parts {
			lit, ok := inner.(*syntax.Lit)
			if !ok {
				return false
			}
			unescapeQuoted(b, lit.Value)
		}
		return true
	}
	return false
}

// unescapeBare removes the backslashes of unquoted text, and fails on an unescaped glob
// character, which makes the word a pattern. A [ without a later ] is no pattern: `[ -f x ]`.
func unescapeBare(b *strings.Builder, s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		case c == '*' || c == '?' || (c == '[' && strings.Contains(s[i+1:], "]")):
			return false
		default:
			b.WriteByte(c)
		}
	}
	return true
}

// unescapeQuoted removes the backslashes that mean something inside double quotes; the others
// stay, as bash keeps them.
func unescapeQuoted(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
		}
		b.WriteByte(s[i])
	}
}

// hasBraceExpansion reports whether bash would expand braces in word, as in {a,b} or {1..3}.
func hasBraceExpansion(word *syntax.Word) bool {
	// SplitBraces rewrites the word it is given; hand it a copy. It also reports a change for
	// words like {} that hold no expansion, so look for one.
	copied := &syntax.Word{Parts: slices.Clone(word.Parts)}
	if !syntax.SplitBraces(copied) {
		return false
	}
	return slices.ContainsFunc(copied.Parts, func(part syntax.WordPart) bool {
		_, ok := part.(*syntax.BraceExp)
		return ok
	})
}

// programName returns the last path element of a program word, when that element is literal:
// "$HOME"/bin/intenthook is intenthook, "$TOOL" is nothing.
func programName(word *syntax.Word) string {
	// Only the literal parts after the last expansion can name the program.
	first := len(word.Parts)
	for first > 0 && isLiteralPart(word.Parts[first-1], first == 1) {
		first--
	}
	var b strings.Builder
	for i, part := range word.Parts[first:] {
		unquotePart(&b, part, first+i == 0)
	}
	tail := b.String()
	slash := strings.LastIndexByte(tail, '/')
	if slash < 0 && first > 0 {
		return "" // ${DIR}tool: the expansion is part of the name
	}
	return tail[slash+1:]
}

func isLiteralPart(part syntax.WordPart, first bool) bool {
	var b strings.Builder
	return unquotePart(&b, part, first)
}

// literalText returns the literal pieces of a word run together, skipping expansions: enough to
// look for SQL keywords in a here-document.
func literalText(word *syntax.Word) string {
	if word == nil {
		return ""
	}
	var b strings.Builder
	syntax.Walk(word, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Lit:
			b.WriteString(n.Value)
		case *syntax.SglQuoted:
			b.WriteString(n.Value)
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ParamExp, *syntax.ArithmExp:
			return false
		}
		return true
	})
	return b.String()
}

// words returns the texts of args, the raw form where a word is not literal.
func words(args []arg) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a.text
		if !a.literal {
			out[i] = a.raw
		}
	}
	return out
}

// sketch returns the value the shell would pass for a word, with each part it expands at run
// time replaced by a hole: the text of a sed or awk script, read as far as it can be.
func sketch(word *syntax.Word) string {
	if word == nil {
		return ""
	}
	var b strings.Builder
	for _, part := range word.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			for i := 0; i < len(p.Value); i++ {
				if p.Value[i] == '\\' && i+1 < len(p.Value) {
					i++
				}
				b.WriteByte(p.Value[i])
			}
		case *syntax.SglQuoted:
			if p.Dollar && strings.Contains(p.Value, `\`) {
				b.WriteByte(hole)
			} else {
				b.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			for _, inner := range p.Parts {
				if lit, ok := inner.(*syntax.Lit); ok {
					unescapeQuoted(&b, lit.Value)
				} else {
					b.WriteByte(hole)
				}
			}
		default:
			b.WriteByte(hole)
		}
	}
	return b.String()
}

// atHome returns a word spelt ~/…, $HOME/…, ${HOME}/… or "$HOME/…" as the literal path it
// names when the walker knows the home directory; any other word as it is.
func (w *walker) atHome(a arg) arg {
	if a.literal || w.home == "" || a.word == nil || len(a.word.Parts) == 0 {
		return a
	}
	parts := a.word.Parts
	var b strings.Builder
	switch p := parts[0].(type) {
	case *syntax.Lit:
		if p.Value != "~" && !strings.HasPrefix(p.Value, "~/") {
			return a // ~user, or no tilde
		}
		b.WriteString(w.home)
		if !unescapeBare(&b, p.Value[1:]) {
			return a
		}
	case *syntax.ParamExp:
		if !isHome(p) {
			return a
		}
		b.WriteString(w.home)
	case *syntax.DblQuoted:
		if len(p.Parts) == 0 {
			return a
		}
		pe, ok := p.Parts[0].(*syntax.ParamExp)
		if !ok || !isHome(pe) {
			return a
		}
		b.WriteString(w.home)
		for _, inner := range p.Parts[1:] {
			lit, ok := inner.(*syntax.Lit)
			if !ok {
				return a
			}
			unescapeQuoted(&b, lit.Value)
		}
	default:
		return a
	}
	for _, part := range parts[1:] {
		if !unquotePart(&b, part, false) {
			return a
		}
	}
	at := literal(b.String())
	at.raw = a.raw
	return at
}

// isHome reports a plain $HOME or ${HOME}.
func isHome(p *syntax.ParamExp) bool {
	return p.Param != nil && p.Param.Value == "HOME" && p.Exp == nil && p.Repl == nil && p.Slice == nil &&
		p.Index == nil && !p.Length && !p.Excl && !p.Width && p.Names == 0
}

// allAtHome is atHome for each word.
func (w *walker) allAtHome(list []arg) []arg {
	if w.home == "" {
		return list
	}
	out := make([]arg, len(list))
	for i, a := range list {
		out[i] = w.atHome(a)
	}
	return out
}
