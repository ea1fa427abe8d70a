package doctor

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/githooks"
)

func checkGit(ctx context.Context, env Env) Check {
	path, err := env.LookPath("git")
	if err != nil {
		return Check{Status: Fail, Name: "git", Detail: "git is not on PATH", Hint: "install git: intenthook precommit and the shell backstop need it"}
	}
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return Check{Status: Fail, Name: "git", Detail: path + " --version failed: " + err.Error(), Hint: "reinstall git"}
	}
	version := strings.TrimSpace(string(out))
	if major, minor, ok := gitVersion(version); ok && (major < 2 || major == 2 && minor < 32) {
		return Check{Status: Warn, Name: "git", Detail: version + ": older than 2.32, which ignores GIT_CONFIG_GLOBAL", Hint: "upgrade git: before 2.32 the hooks' own git reads the whole of ~/.gitconfig (its filters among them), not only the allow-listed keys"}
	}
	return Check{Status: Pass, Name: "git", Detail: version}
}

// gitVersion reads "git version 2.43.0" (with any suffix).
func gitVersion(s string) (major, minor int, ok bool) {
	f := strings.Fields(s)
	if len(f) < 3 {
		return 0, 0, false
	}
	parts := strings.SplitN(f[2], ".", 3)
	if len(parts) < 2 {
		return 0, 0, false
	}
	var err1, err2 error
	major, err1 = strconv.Atoi(parts[0])
	minor, err2 = strconv.Atoi(parts[1])
	return major, minor, err1 == nil && err2 == nil
}

// checkPreCommit looks for intenthook precommit in the places a commit runs
// checks from: the git hook (where git looks for it: core.hooksPath,
// husky 9's scripts), pre-commit's and lefthook's configuration, which
// count where git's hook is the manager's own. The git
// hook is read as sh runs it: a line after an exit, or one whose status
// the hook ignores, refuses nothing and fails the check. Missing, it is
// advice rather than a failure: the agent hooks govern without it, but
// hand edits and skipped hooks then go unnoticed.
func checkPreCommit(ctx context.Context, root string, gitOK bool) Check {
	const name = "git pre-commit"
	if !gitOK {
		return Check{Status: Skip, Name: name, Detail: "no git"}
	}
	top, err := git.Line(ctx, root, "rev-parse", "--show-toplevel")
	if err != nil {
		return Check{Status: Skip, Name: name, Detail: "not a git repository"}
	}
	place, _, err := githooks.Where(ctx, root, "pre-commit")
	if err != nil {
		return Check{Status: Skip, Name: name, Detail: err.Error()}
	}
	hook, hookErr := os.ReadFile(place.Path)
	if hookErr == nil {
		v := githooks.Read(hook, "intenthook precommit", place.Husky)
		switch {
		case v.Runs && bytes.Contains(hook, []byte(githooks.ChainSuffix)):
			return Check{Status: Pass, Name: name, Detail: "intenthook precommit runs from " + place.Path + ", after the hook chained before it (pre-commit" + githooks.ChainSuffix + ")"}
		case v.Runs && place.Husky:
			return Check{Status: Pass, Name: name, Detail: "intenthook precommit runs from " + place.Path + " (husky runs it with sh -e)"}
		case v.Runs:
			return Check{Status: Pass, Name: name, Detail: "intenthook precommit runs from " + place.Path}
		case v.Found:
			return Check{Status: Fail, Name: name, Detail: fmt.Sprintf("%s: intenthook precommit at line %d %s", place.Path, v.Line, v.Why),
				Hint: "intenthook init --git-hook chains the hook that is there and runs intenthook precommit after it, its status deciding the commit"}
		}
	}
	// A hook manager's configuration runs intenthook only through the
	// manager's own hook, where git looks for it.
	managers := []struct {
		files   []string
		runs    func([]byte) bool
		hook    func([]byte) bool
		title   string
		install string
	}{
		{[]string{githooks.PreCommitConfig}, githooks.ConfigRunsIntenthook, githooks.IsPreCommitHook, "pre-commit", "pre-commit install"},
		{[]string{"lefthook.yml", "lefthook.yaml", ".lefthook.yml"}, func(data []byte) bool { return bytes.Contains(data, []byte("intenthook precommit")) }, githooks.IsLefthookHook, "lefthook", "lefthook install"},
	}
	for _, m := range managers {
		for _, c := range m.files {
			path := filepath.Join(top, c)
			data, err := os.ReadFile(path)
			if err != nil || !m.runs(data) {
				continue
			}
			if hookErr == nil && m.hook(hook) {
				return Check{Status: Pass, Name: name, Detail: "intenthook precommit runs from " + path + " (" + m.title + "'s hook runs it, from " + place.Path + ")"}
			}
			return Check{Status: Warn, Name: name, Detail: path + " runs intenthook precommit, but " + place.Path + " is not " + m.title + "'s hook, so git never runs it",
				Hint: m.install + " installs the hook that runs it"}
		}
	}
	return Check{Status: Warn, Name: name, Detail: "no pre-commit hook runs intenthook precommit", Hint: "intenthook init --git-hook installs one; docs/ci.md shows lefthook and pre-commit set-ups. Without it, edits the agent hooks did not see are committed unchecked"}
}
