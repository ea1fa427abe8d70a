package intents

import (
	"fmt"
	"sort"
	"strings"

	"github.com/intenthook/intenthook/internal/glob"
)

// validateCatalog adds the rules that span intents: unique ids, references
// that name an intent, and dependency cycles.
func validateCatalog(c *Catalog) {
	for _, in := range c.list {
		if first := c.byID[in.ID]; in.ID != "" && first != in {
			addProblem(in, Error, "duplicate id %s (first at line %d)", in.ID, first.Line)
		}
		if in.ParentIntent != "" && c.byID[in.ParentIntent] == nil {
			addProblem(in, Error, "parent_intent %s names no intent", in.ParentIntent)
		}
		for _, dep := range in.DependsOn {
			if c.byID[dep] == nil {
				addProblem(in, Error, "depends_on %s names no intent", dep)
			}
		}
	}
	for _, in := range c.list {
		if cycle := findCycle(c, in); cycle != nil {
			addProblem(in, Error, "dependency cycle: %s", strings.Join(cycle, " -> "))
		}
	}
	for _, in := range c.list {
		validateParent(c, in)
		validateStranded(c, in)
	}
}

// validateStranded warns about an intent that can never start: it waits on
// an abandoned intent (archived without completing), or on one that does.
func validateStranded(c *Catalog, in *Intent) {
	dep, abandoned, ok := c.Stranded(in)
	if !ok {
		return
	}
	if dep == abandoned {
		addProblem(in, Warning, "depends_on %s, which was abandoned (ARCHIVED without completing): %s cannot start; a person removes %s from its depends_on, or archives %s", dep, in.ID, dep, in.ID)
		return
	}
	addProblem(in, Warning, "depends_on %s, which cannot start (stranded by abandoned %s): %s cannot start either", dep, abandoned, in.ID)
}

// validateParent holds a child to its parent: no loop of parents, and each
// owned_scope pattern within the parent's owned_scope (a child narrows its
// parent's work; it never reaches past it).
func validateParent(c *Catalog, in *Intent) {
	parent := c.byID[in.ParentIntent]
	if parent == nil {
		return
	}
	if loop := parentLoop(c, in); loop != nil {
		addProblem(in, Error, "parent_intent loop: %s", strings.Join(loop, " -> "))
		return
	}
	if !compiles(in) || !compiles(parent) || len(parent.OwnedScope) == 0 {
		return // the patterns' own errors are reported where they are
	}
	for i, pat := range in.OwnedScope {
		line := in.Line
		if len(in.scopeLines) == len(in.OwnedScope) {
			line = in.scopeLines[i]
		}
		r := glob.Within(pat, parent.OwnedScope)
		switch {
		case !r.Decided:
			in.Problems = append(in.Problems, Problem{Line: line, ID: in.ID, Severity: Warning, Message: fmt.Sprintf(
				"cannot decide whether owned_scope pattern %q lies within parent %s's owned_scope (%s): %s; check it by hand",
				pat, parent.ID, parent.ScopeSummary(), r.Reason)})
		case !r.Covered:
			in.Problems = append(in.Problems, Problem{Line: line, ID: in.ID, Severity: Error, Message: fmt.Sprintf(
				"owned_scope pattern %q reaches outside parent %s's owned_scope (%s): %q matches it and no pattern of %s",
				pat, parent.ID, parent.ScopeSummary(), r.Witness, parent.ID)})
		}
	}
}

// compiles reports whether every owned_scope pattern of in compiles.
func compiles(in *Intent) bool {
	for _, p := range in.OwnedScope {
		if _, err := compileScope(p); err != nil {
			return false
		}
	}
	return true
}

// parentLoop returns the parent_intent path from in back to an intent
// already on it, or nil.
func parentLoop(c *Catalog, in *Intent) []string {
	seen := map[string]bool{}
	var path []string
	for cur := in; cur != nil; cur = c.Find(cur.ParentIntent) {
		path = append(path, cur.ID)
		if seen[cur.ID] {
			return path
		}
		seen[cur.ID] = true
		if cur.ParentIntent == "" {
			return nil
		}
	}
	return nil
}

func addProblem(in *Intent, sev Severity, format string, args ...any) {
	in.Problems = append(in.Problems, Problem{Line: in.Line, ID: in.ID, Severity: sev, Message: fmt.Sprintf(format, args...)})
}

// findCycle returns a depends_on path from start back to start, or nil.
func findCycle(c *Catalog, start *Intent) []string {
	visited := map[string]bool{}
	var path []string
	var walk func(in *Intent) bool
	walk = func(in *Intent) bool {
		path = append(path, in.ID)
		for _, dep := range in.DependsOn {
			if dep == start.ID {
				path = append(path, dep)
				return true
			}
			next := c.byID[dep]
			if next == nil || visited[dep] {
				continue
			}
			visited[dep] = true
			if walk(next) {
				return true
			}
		}
		path = path[:len(path)-1]
		return false
	}
	if walk(start) {
		return path
	}
	return nil
}

func sortProblems(ps []Problem) {
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Line < ps[j].Line })
}
