// Package glob is the one glob dialect of intenthook, shared by owned_scope,
// protected_paths and outside_allow: `/` separates segments, `*` and `?` stay
// within one segment, `**` spans any number of segments including none, and
// a pattern "p/**" also matches p itself (a scope over a directory covers the
// directory). Patterns match whole paths. It does not know which paths are
// relative to what: callers check that before compiling.
package glob

import (
	"strings"

	gobwas "github.com/gobwas/glob"
)

// compiler pins the semantics; TestDialect holds them to it.
var compiler = gobwas.Compiler{Separators: []rune{'/'}, Globstar: true}

// Pattern is one compiled glob.
type Pattern struct {
	text string
	g    *gobwas.Pattern
	dir  string // set for "p/**": p itself matches too
	// dirG matches p when p has wildcards: "src/*/**" covers "src/a" as
	// "src/**" covers "src".
	dirG *gobwas.Pattern
}

// Compile compiles text in the project's dialect.
func Compile(text string) (Pattern, error) {
	g, err := compiler.Compile(text)
	if err != nil {
		return Pattern{}, err
	}
	p := Pattern{text: text, g: g}
	if dir, ok := strings.CutSuffix(text, "/**"); ok {
		p.dir = dir
		if strings.ContainsAny(dir, `*?[{\`) {
			if p.dirG, err = compiler.Compile(dir); err != nil {
				return Pattern{}, err
			}
		}
	}
	return p, nil
}

// Match reports whether the whole of s matches.
func (p Pattern) Match(s string) bool {
	if p.g.Match(s) {
		return true
	}
	if p.dirG != nil {
		return p.dirG.Match(s)
	}
	return p.dir != "" && p.dir == s
}

// String returns the pattern's text.
func (p Pattern) String() string { return p.text }

// Match compiles pattern and matches s against it.
func Match(pattern, s string) (bool, error) {
	p, err := Compile(pattern)
	if err != nil {
		return false, err
	}
	return p.Match(s), nil
}
