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
	dir, err := git.Line(ctx, root, "rev-parse", "--git-path", "hooks")
	if err != nil {
		return Change{}, fmt.Errorf("--git-hook needs a git repository: %w", err)
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	prefix, err := git.Line(ctx, root, "rev-parse", "--show-prefix")
	if err != nil {
		return Change{}, err
	}
	path := filepath.Join(dir, "pre-commit")
	show := displayPath(root, path)
	script := preCommitScript(strings.TrimSuffix(prefix, "/"))
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
