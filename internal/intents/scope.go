package intents

import (
	"errors"
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/glob"
)

// scopePattern is one owned_scope glob, in the dialect of package glob.
type scopePattern = glob.Pattern

func compileScope(text string) (scopePattern, error) {
	switch {
	case strings.TrimSpace(text) == "":
		return scopePattern{}, errors.New("empty pattern")
	case strings.HasPrefix(text, "/"):
		return scopePattern{}, errors.New("must be relative to the workspace root")
	case strings.Contains(text, `\`) && !strings.ContainsAny(text, "*?[{"):
		return scopePattern{}, errors.New("use / as the separator")
	}
	for _, seg := range strings.Split(text, "/") {
		if seg == ".." {
			return scopePattern{}, errors.New(`must not contain ".."`)
		}
	}
	return glob.Compile(text)
}

// Match returns the first owned_scope pattern that covers rel, a cleaned
// root-relative path with / separators.
func (in *Intent) Match(rel string) (pattern string, ok bool) {
	for _, p := range in.patterns() {
		if p.Match(rel) {
			return p.String(), true
		}
	}
	return "", false
}

// MatchGlob reports whether rel matches the single pattern with owned_scope
// semantics; it is for callers outside a catalog (protected_paths, tests).
func MatchGlob(pattern, rel string) (bool, error) {
	p, err := compileScope(pattern)
	if err != nil {
		return false, err
	}
	return p.Match(rel), nil
}

// patterns compiles owned_scope on first use: a cached catalog arrives
// without compiled globs, and a hook needs only its active intent's.
func (in *Intent) patterns() []scopePattern {
	if in.scope == nil {
		for _, text := range in.OwnedScope {
			if p, err := compileScope(text); err == nil {
				in.scope = append(in.scope, p)
			}
		}
	}
	return in.scope
}

// Amended returns a copy of the intent whose owned_scope has remove's
// patterns taken out and add's appended (those it does not hold yet): a
// scope change weighed before a person makes it. It checks nothing; the
// catalog's editor does when the change is made.
func (in *Intent) Amended(add, remove []string) *Intent {
	cp := *in
	cp.OwnedScope = nil
	for _, p := range in.OwnedScope {
		if !slices.Contains(remove, p) {
			cp.OwnedScope = append(cp.OwnedScope, p)
		}
	}
	for _, p := range add {
		if !slices.Contains(cp.OwnedScope, p) {
			cp.OwnedScope = append(cp.OwnedScope, p)
		}
	}
	cp.scope, cp.scopeLines = nil, nil
	return &cp
}
