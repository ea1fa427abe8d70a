package setup

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/githooks"
	"github.com/intenthook/intenthook/internal/state"
)

// installGitHook writes the git pre-commit hook that runs intenthook
// precommit, where git looks for it (core.hooksPath, worktrees, husky).
func installGitHook(ctx context.Context, root string, force bool) (Change, error) {
	return installHook(ctx, root, force, hookSpec{
		name:      "pre-commit",
		framework: preCommitConfig(ctx, root) != "",
		needle:    "intenthook precommit",
		command:   "intenthook precommit",
		comment: `refuse a commit whose staged
# changes lie outside every active intent's owned_scope (and warn about
# changes the ledger has no record of). Skip once with git commit --no-verify.`,
		note: "runs intenthook precommit",
	})
}

// commitMsgLine is what the commit-msg hook runs.
const commitMsgLine = "intenthook precommit --commit-msg"

// installCommitMsgHook writes the git commit-msg hook that marks a
// person's commit (intenthook precommit --commit-msg, which does nothing
// unless people.commits is free): without the mark a person's commit
// passes precommit but audit judges it as an agent's.
func installCommitMsgHook(ctx context.Context, root string, force bool) (Change, error) {
	return installHook(ctx, root, force, hookSpec{
		name:    "commit-msg",
		needle:  commitMsgLine,
		command: commitMsgLine + ` "$1"`,
		comment: `under people.commits: free, mark
# a person's commit (Intenthook-Person: name <email>) for intenthook audit.`,
		note: "marks a person's commit: " + commitMsgLine,
	})
}

// hookSpec is one git hook init installs.
type hookSpec struct {
	name    string // the hook: pre-commit, commit-msg
	needle  string // what a hook that runs intenthook's step contains
	command string // the command line, without --root
	comment string // the installed script's comment, after its first words
	note    string // init's note on a hook it wrote
	// framework: the work tree has the pre-commit framework's
	// configuration, which init gives intenthook's entry
	// (installPreCommitEntry); the framework's own hook runs it.
	framework bool
}

// installHook writes spec's hook. A hook whose reading says it already
// runs the command with its status deciding the hook's is kept. Someone's
// own hook is chained: moved to <name>.intenthook-chained and run first by
// the hook init writes (githooks.Chain); --force replaces it instead.
// Under husky 9 the command is added to husky's script (.husky/<name>),
// which husky runs with sh -e.
func installHook(ctx context.Context, root string, force bool, spec hookSpec) (Change, error) {
	place, prefix, err := githooks.Where(ctx, root, spec.name)
	if err != nil {
		return Change{}, fmt.Errorf("--git-hook: %w", err)
	}
	line := spec.command
	if prefix != "" {
		line += " --root " + shellQuote(prefix)
	}
	show := displayPath(root, place.Path)
	old, err := os.ReadFile(place.Path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Change{}, err
	}
	if place.Husky {
		return addToHusky(place, show, old, line, spec)
	}
	if spec.framework {
		switch {
		case githooks.IsPreCommitHook(old):
			return Change{Action: Kept, Path: show, Note: "pre-commit's own hook: it runs " + githooks.PreCommitConfig}, nil
		case errors.Is(err, fs.ErrNotExist):
			return Change{Action: Kept, Path: show, Note: "none written: pre-commit's own hook runs " + githooks.PreCommitConfig,
				Notes: []string{"run pre-commit install: until then git runs no pre-commit hook (intenthook doctor warns)"}}, nil
		}
	}
	script := []byte("#!/bin/sh\n# Installed by \"intenthook init --git-hook\": " + spec.comment + "\nexec " + line + "\n")
	chain := githooks.Chain(spec.name, line)
	action := Created
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case bytes.Equal(old, script), bytes.Equal(old, chain):
		return Change{Action: Kept, Path: show}, nil
	case githooks.Read(old, spec.needle, false).Runs:
		return Change{Action: Kept, Path: show, Note: "it already runs " + spec.needle}, nil
	case force:
		action = Replaced
	default:
		return chainHook(place, show, chain, spec)
	}
	if err := os.MkdirAll(place.Dir, 0o755); err != nil {
		return Change{}, err
	}
	if err := state.WriteFile(place.Path, script, 0o755, true); err != nil {
		return Change{}, err
	}
	return Change{Action: action, Path: show, Note: spec.note}, nil
}

// chainHook moves someone's hook aside and writes the chain that runs it
// first. A chained hook already there (the chain replaced since) is not
// overwritten: a person sorts the two out.
func chainHook(place githooks.Place, show string, chain []byte, spec hookSpec) (Change, error) {
	moved := place.Path + githooks.ChainSuffix
	if exists(moved) {
		return Change{}, &ConflictError{Path: show, Reason: "a different " + spec.name + " hook is installed, and " + filepath.Base(moved) + " is taken",
			Hint: "merge the two into " + filepath.Base(moved) + " and remove " + show + ", or run intenthook init --git-hook --force to replace it"}
	}
	if err := os.Rename(place.Path, moved); err != nil {
		return Change{}, fmt.Errorf("chain the %s hook: %w", spec.name, err)
	}
	if err := state.WriteFile(place.Path, chain, 0o755, true); err != nil {
		return Change{}, err
	}
	return Change{Action: Updated, Path: show, Note: "chained: the hook that was here runs first, from " + show + githooks.ChainSuffix + ", then " + spec.needle + ", even when it failed"}, nil
}

// addToHusky appends the command to husky's script for the hook (husky 9
// runs .husky/<name> with sh -e, so its status decides the hook's),
// creating the script when there is none.
func addToHusky(place githooks.Place, show string, old []byte, line string, spec hookSpec) (Change, error) {
	if githooks.Read(old, spec.needle, true).Runs {
		return Change{Action: Kept, Path: show, Note: "it already runs " + spec.needle}, nil
	}
	action := Updated
	if old == nil {
		action = Created
	}
	data := old
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	data = append(data, line+"\n"...)
	if err := state.WriteFile(place.Path, data, modeOf(place.Path, 0o755), true); err != nil {
		return Change{}, err
	}
	return Change{Action: action, Path: show, Note: "husky runs it: added " + line}, nil
}

// preCommitConfig is the pre-commit framework's configuration at the
// top of root's work tree, "" when there is none.
func preCommitConfig(ctx context.Context, root string) string {
	top, err := git.Line(ctx, root, "rev-parse", "--show-toplevel")
	if err != nil {
		return ""
	}
	path := filepath.Join(top, githooks.PreCommitConfig)
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return ""
	}
	return path
}

// installPreCommitEntry adds intenthook precommit to the pre-commit
// framework's configuration as a repo: local hook (githooks.AddLocalHook:
// every other byte kept), unless it runs intenthook already.
func installPreCommitEntry(ctx context.Context, root string) (Change, error) {
	path := preCommitConfig(ctx, root)
	show := displayPath(root, path)
	data, err := os.ReadFile(path)
	if err != nil {
		return Change{}, err
	}
	if githooks.ConfigRunsIntenthook(data) {
		return Change{Action: Kept, Path: show, Note: "it already runs intenthook precommit"}, nil
	}
	_, prefix, err := githooks.Where(ctx, root, "pre-commit")
	if err != nil {
		return Change{}, fmt.Errorf("--git-hook: %w", err)
	}
	entry := "intenthook precommit"
	if prefix != "" {
		entry += " --root " + shellQuote(prefix)
	}
	out, err := githooks.AddLocalHook(data, entry)
	if err != nil {
		return Change{}, &ConflictError{Path: show, Reason: err.Error(),
			Hint: "add a repo: local hook running " + entry + " by hand (docs/ci.md shows it)"}
	}
	if err := state.WriteFile(path, out, modeOf(path, 0o644), true); err != nil {
		return Change{}, err
	}
	return Change{Action: Updated, Path: show, Note: "added a repo: local hook running " + entry}, nil
}

// shellQuote quotes s for sh in single quotes; a quote inside s closes the
// quoting, is escaped with a backslash, and reopens it.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// displayPath shows path relative to root when it lies inside it.
func displayPath(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return path
}
