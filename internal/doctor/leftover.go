package doctor

import (
	"bytes"
	"context"
	"os"
	"path/filepath"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/githooks"
)

// leftHint says what a leftover means where no workspace is.
const leftHint = "with no workspace here, intenthook governs nothing and its hooks let every call through: remove intenthook's entries by hand, or run intenthook init to govern the work tree again"

// checkLeftovers lists, where doctor finds no workspace, the wiring that
// still runs intenthook there (what uninstall and a removed .orchestration/
// leave): each agent's settings and MCP files, git's pre-commit and
// commit-msg hooks and what they chain. dir is --root, else the top of the
// work tree around start, else start.
func checkLeftovers(ctx context.Context, env Env) []Check {
	dir := env.Root
	if dir == "" {
		dir = env.Start
		if top, err := git.Line(ctx, env.Start, "rev-parse", "--show-toplevel"); err == nil && top != "" {
			dir = filepath.FromSlash(top)
		}
	}
	if dir == "" {
		return nil
	}
	var checks []Check
	seen := map[string]bool{}
	add := func(path, what string) {
		if seen[path] {
			return
		}
		seen[path] = true
		if data, err := os.ReadFile(path); err == nil && bytes.Contains(data, []byte("intenthook")) {
			checks = append(checks, Check{Status: Warn, Name: "left behind", Detail: displayRel(dir, path) + " runs intenthook (" + what + ")", Hint: leftHint})
		}
	}
	for _, a := range agent.All() {
		for _, s := range a.Settings {
			add(filepath.Join(dir, filepath.FromSlash(s)), a.Title+"'s hooks")
		}
		if a.MCP != nil {
			add(filepath.Join(dir, filepath.FromSlash(a.MCP.File)), a.Title+"'s MCP servers")
		}
	}
	for _, name := range []string{"pre-commit", "commit-msg"} {
		place, _, err := githooks.Where(ctx, dir, name)
		if err != nil {
			break
		}
		add(place.Path, "git's "+name+" hook")
		add(place.Path+githooks.ChainSuffix, "git's "+name+" hook, chained")
	}
	// Only the last line carries the hint: one is enough.
	for i := range checks[:max(len(checks)-1, 0)] {
		checks[i].Hint = ""
	}
	return checks
}

// displayRel shows path relative to dir when it lies inside it.
func displayRel(dir, path string) string {
	if rel, err := filepath.Rel(dir, path); err == nil && !filepath.IsAbs(rel) && rel != ".." && !bytes.HasPrefix([]byte(rel), []byte(".."+string(filepath.Separator))) {
		return filepath.ToSlash(rel)
	}
	return path
}
