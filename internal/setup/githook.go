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

	"github.com/intenthook/intenthook/internal/state"
)

// installGitHook writes the git pre-commit hook that runs intenthook
// precommit. The hooks directory comes from git (core.hooksPath, worktrees).
// A hook that already runs intenthook precommit is kept; any other hook is
// someone's and is replaced only with force.
func installGitHook(ctx context.Context, root string, force bool) (Change, error) {
	dir, prefix, err := hooksDir(ctx, root)
	if err != nil {
		return Change{}, err
	}
	path := filepath.Join(dir, "pre-commit")
	show := displayPath(root, path)
	script := preCommitScript(prefix)
	action := Created
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return Change{}, err
	case bytes.Equal(old, script):
		return Change{Action: Kept, Path: show, Note: ""}, nil
	case bytes.Contains(old, []byte("intenthook precommit")):
		return Change{Action: Kept, Path: show, Note: "it already runs intenthook precommit"}, nil
	case !force:
		return Change{}, &ConflictError{Path: show, Reason: "a different pre-commit hook is installed",
			Hint: "add the line 'intenthook precommit' to it, or run intenthook init --git-hook --force to replace it"}
	default:
		action = Replaced
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Change{}, err
	}
	if err := state.WriteFile(path, script, 0o755, true); err != nil {
		return Change{}, err
	}
	return Change{Action: action, Path: show, Note: "runs intenthook precommit"}, nil
}

// hooksDir is where git looks for hooks (core.hooksPath, worktrees), and
// the workspace root's path from the top of the work tree.
func hooksDir(ctx context.Context, root string) (dir, prefix string, err error) {
	dir, err = git.Line(ctx, root, "rev-parse", "--git-path", "hooks")
	if err != nil {
		return "", "", fmt.Errorf("--git-hook needs a git repository: %w", err)
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	prefix, err = git.Line(ctx, root, "rev-parse", "--show-prefix")
	return dir, strings.TrimSuffix(prefix, "/"), err
}

// commitMsgLine is what the commit-msg hook runs.
const commitMsgLine = "intenthook precommit --commit-msg"

// installCommitMsgHook writes the git commit-msg hook that marks a
// person's commit (intenthook precommit --commit-msg, which does nothing
// unless people.commits is free). Another commit-msg hook (a Change-Id
// hook, a message linter) is kept, with a note: without the mark a
// person's commit passes precommit but audit judges it as an agent's.
func installCommitMsgHook(ctx context.Context, root string, force bool) (Change, error) {
	dir, prefix, err := hooksDir(ctx, root)
	if err != nil {
		return Change{}, err
	}
	path := filepath.Join(dir, "commit-msg")
	show := displayPath(root, path)
	cmd := "exec " + commitMsgLine + ` "$1"`
	if prefix != "" {
		cmd = "exec " + commitMsgLine + ` "$1" --root ` + shellQuote(prefix)
	}
	script := []byte(`#!/bin/sh
# Installed by "intenthook init --git-hook": under people.commits: free, mark
# a person's commit (Intenthook-Person: name <email>) for intenthook audit.
` + cmd + "\n")
	action := Created
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return Change{}, err
	case bytes.Equal(old, script):
		return Change{Action: Kept, Path: show}, nil
	case bytes.Contains(old, []byte(commitMsgLine)):
		return Change{Action: Kept, Path: show, Note: "it already runs " + commitMsgLine}, nil
	case !force:
		return Change{Action: Kept, Path: show, Note: "a different commit-msg hook",
			Notes: []string{"add the line '" + commitMsgLine + ` "$1"' to it (its status must fail the hook): under people.commits: free, a person's commit is marked for audit only by it`}}, nil
	default:
		action = Replaced
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Change{}, err
	}
	if err := state.WriteFile(path, script, 0o755, true); err != nil {
		return Change{}, err
	}
	return Change{Action: action, Path: show, Note: "marks a person's commit: " + commitMsgLine}, nil
}

// preCommitScript is the hook. Git runs hooks at the top of the work tree;
// a workspace root below it is passed with --root.
func preCommitScript(rootFromTop string) []byte {
	cmd := "exec intenthook precommit"
	if rootFromTop != "" {
		cmd = "exec intenthook precommit --root " + shellQuote(rootFromTop)
	}
	return []byte(`#!/bin/sh
# Installed by "intenthook init --git-hook": refuse a commit whose staged
# changes lie outside every active intent's owned_scope (and warn about
# changes the ledger has no record of). Skip once with git commit --no-verify.
` + cmd + "\n")
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
