package intents

import (
	"fmt"
	"sort"
	"strings"
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
