package main

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestArchitectureFloors holds ARCHITECTURE.md's floors to the code: each
// package stands on the floor one above the highest it imports, and each
// is named first in its floor's paragraph (`agent/claude`, `gemini`: a
// bare name after an agent is that agent's package). A few packages must
// never stand on some others at all, whatever their floors.
func TestArchitectureFloors(t *testing.T) {
	const module = "github.com/intenthook/intenthook/"
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "../../internal/...", "../../cmd/...").Output()
	if err != nil {
		t.Fatal(err)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(strings.TrimPrefix(f[0], module), "internal/")
		for _, imp := range f[1:] {
			if strings.HasPrefix(imp, module) {
				imports[pkg] = append(imports[pkg], strings.TrimPrefix(strings.TrimPrefix(imp, module), "internal/"))
			}
		}
		if imports[pkg] == nil {
			imports[pkg] = []string{}
		}
	}
	floor := map[string]int{}
	var of func(string) int
	of = func(p string) int {
		if f, ok := floor[p]; ok {
			return f
		}
		f := 0
		for _, imp := range imports[p] {
			f = max(f, of(imp)+1)
		}
		floor[p] = f
		return f
	}
	doc, err := os.ReadFile("../../ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]int{}
	para := regexp.MustCompile(`(?s)\*\*Floor (\d+):.*?(?:\n\n|$)`)
	for _, m := range para.FindAllStringSubmatch(string(doc), -1) {
		n, _ := strconv.Atoi(m[1])
		prefix := ""
		for _, name := range regexp.MustCompile("`([a-z0-9/-]+)`").FindAllStringSubmatch(m[0], -1) {
			p := name[1]
			if _, ok := imports[p]; !ok && prefix != "" {
				p = prefix + p
			}
			if _, ok := imports[p]; ok {
				if _, seen := named[p]; !seen {
					named[p] = n
				}
				if i := strings.LastIndexByte(p, '/'); i >= 0 {
					prefix = p[:i+1]
				}
			}
		}
	}
	pkgs := slices.Sorted(func(yield func(string) bool) {
		for p := range imports {
			if !yield(p) {
				return
			}
		}
	})
	// What must never stand beneath a package, whatever floors the rest
	// take: loading a workspace pulls in no agent, no review state and no
	// catalog edit (their callers hand the workspace what it needs), and
	// the gate depends on no agent's adapter (the runner hands it every
	// agent's governance rows).
	beneath := func(p string) map[string]bool {
		seen := map[string]bool{}
		var walk func(string)
		walk = func(p string) {
			for _, imp := range imports[p] {
				if !seen[imp] {
					seen[imp] = true
					walk(imp)
				}
			}
		}
		walk(p)
		return seen
	}
	for p, never := range map[string][]string{
		"workspace": {"agent", "review", "lifecycle", "summary"},
		"gate":      {"agent"},
	} {
		for dep := range beneath(p) {
			for _, n := range never {
				if dep == n || strings.HasPrefix(dep, n+"/") && dep != "agent/protocol" {
					t.Errorf("%s stands on %s: it must not", p, dep)
				}
			}
		}
	}
	for _, p := range pkgs {
		want := of(p)
		got, ok := named[p]
		switch {
		case !ok:
			t.Errorf("%s (floor %d) is on no floor of ARCHITECTURE.md", p, want)
		case got != want:
			t.Errorf("%s is on floor %d in ARCHITECTURE.md; its imports put it on floor %d", p, got, want)
		}
	}
}
