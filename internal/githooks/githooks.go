// Package githooks reads and writes the git hooks intenthook runs from:
// where git looks for them (the hooks directory, core.hooksPath, husky's
// scripts), the chain init writes in front of someone's own hook, the
// pre-commit framework's configuration and its local hook, and a
// static reading of a hook script that says whether a command in it
// decides the hook's status. It does not judge commits (precommit does).
package githooks

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/git"
)

// ChainSuffix names the file a person's own hook is moved to when init
// chains it: pre-commit becomes pre-commit.intenthook-chained.
const ChainSuffix = ".intenthook-chained"

// Chain is the hook init writes in place of someone's own: the hook that
// was there (moved to name+ChainSuffix) runs first, then cmd, even when
// the first failed, so both print their findings; the hook fails with the
// first failure. A chained hook git would not run (not executable) is not
// run either. line is the command line ("intenthook precommit --commit-msg "$1"").
func Chain(name, line string) []byte {
	return []byte(`#!/bin/sh
# Installed by "intenthook init --git-hook": the ` + name + ` hook that was here
# (moved to ` + name + ChainSuffix + `) runs first, then intenthook,
# even when the first failed. The hook fails when either does.
chained="$(dirname "$0")/` + name + ChainSuffix + `"
first=0
if [ -x "$chained" ]; then
	"$chained" "$@"
	first=$?
fi
` + line + `
second=$?
if [ "$first" -ne 0 ]; then
	exit "$first"
fi
exit "$second"
`)
}

// Verdict is what a static reading of a hook script says about one
// command in it.
type Verdict struct {
	Found bool   // the command is in the script
	Runs  bool   // it runs, and its status decides the hook's
	Line  int    // its line (1-based), when found
	Why   string // when found but not Runs: why it refuses nothing
}

// Read reads script as sh would run it and says whether cmd (such as
// "intenthook precommit") runs in it with its status deciding the hook's.
// A command after a top-level exit or exec never runs; a command whose
// status the script drops (|| true, in the background, not the last
// command and not followed by a use of $?) refuses nothing. errexit says
// the script runs under sh -e (husky runs its scripts so); set -e in the
// script does the same. It reads lines, not a full grammar: a command
// inside a function or an if counts as where it stands.
func Read(script []byte, cmd string, errexit bool) Verdict {
	lines := strings.Split(strings.ReplaceAll(string(script), "\r\n", "\n"), "\n")
	exitAt := 0
	for i, raw := range lines {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		at := strings.Index(line, cmd)
		if at < 0 || !wordEnd(line, at+len(cmd)) {
			top := raw == strings.TrimLeft(raw, " \t")
			if top && exitAt == 0 && (isWord(line, "exit") || isWord(line, "exec")) {
				exitAt = i + 1
			}
			if top && (isWord(line, "set") && setsErrexit(line)) {
				errexit = true
			}
			continue
		}
		v := Verdict{Found: true, Line: i + 1}
		if exitAt > 0 {
			kind := "exit"
			if isWord(strings.TrimSpace(lines[exitAt-1]), "exec") {
				kind = "exec"
			}
			v.Why = fmt.Sprintf("comes after the %s at line %d: it never runs", kind, exitAt)
			return v
		}
		if dropsStatus(line[at+len(cmd):]) {
			v.Why = "runs, but the hook ignores its status: a refused commit goes through"
			return v
		}
		if errexit || strings.HasPrefix(line, "exec ") || usesStatus(line[at+len(cmd):]) ||
			strings.HasPrefix(line, "if ! ") || strings.HasPrefix(line, "! ") ||
			nextUsesStatus(lines[i+1:]) || lastCommand(lines[i+1:]) {
			v.Runs = true
			return v
		}
		v.Why = "runs, but the hook ignores its status: a refused commit goes through"
		return v
	}
	return Verdict{}
}

// isWord reports whether line starts with the shell word w.
func isWord(line, w string) bool {
	return line == w || strings.HasPrefix(line, w+" ") || strings.HasPrefix(line, w+"\t") || strings.HasPrefix(line, w+";")
}

// wordEnd reports whether the command ends at i (not "precommitx").
func wordEnd(line string, i int) bool {
	return i == len(line) || strings.ContainsRune(" \t;&|)\"'", rune(line[i]))
}

func setsErrexit(line string) bool {
	for _, f := range strings.Fields(line)[1:] {
		if strings.HasPrefix(f, "-") && !strings.HasPrefix(f, "--") && strings.Contains(f, "e") {
			return true
		}
		if f == "errexit" {
			return true
		}
	}
	return false
}

// dropsStatus reports whether what follows the command on its line
// throws its status away.
func dropsStatus(rest string) bool {
	r := strings.Join(strings.Fields(rest), " ")
	for _, drop := range []string{"|| true", "||true", "|| :", "||:", "; true", "; :", "|| echo"} {
		if strings.Contains(r, drop) {
			return true
		}
	}
	r = strings.TrimSpace(r)
	return strings.HasSuffix(r, "&") && !strings.HasSuffix(r, "&&")
}

// usesStatus reports whether the rest of the line acts on a failure.
func usesStatus(rest string) bool {
	r := strings.Join(strings.Fields(rest), " ")
	return strings.Contains(r, "|| exit") || strings.Contains(r, "||exit") || strings.Contains(r, "|| return") || strings.Contains(r, "$?")
}

// nextUsesStatus reports whether the next command line reads $?.
func nextUsesStatus(rest []string) bool {
	for _, raw := range rest {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		return strings.Contains(line, "$?")
	}
	return false
}

// lastCommand reports whether nothing but comments, blank lines and the
// ends of blocks follows: the command's status is the script's.
func lastCommand(rest []string) bool {
	for _, raw := range rest {
		line := strings.TrimSpace(raw)
		switch {
		case line == "", strings.HasPrefix(line, "#"), line == "fi", line == "done", line == "}", line == "esac", line == ";;":
		default:
			return false
		}
	}
	return true
}

// Place is where git finds the hook named Name.
type Place struct {
	Name string // pre-commit, commit-msg
	Dir  string // git's hooks directory (core.hooksPath honoured, worktrees too)
	// Path is the file that holds the hook's commands: Dir/Name, or under
	// husky 9 (core.hooksPath .husky/_, whose stubs run ../Name) the
	// script .husky/Name that husky runs with sh -e.
	Path  string
	Husky bool
}

// Where says where git finds the hook name for the work tree at root,
// and root's path from the top of the work tree (hooks run at the top).
func Where(ctx context.Context, root, name string) (Place, string, error) {
	dir, err := git.Line(ctx, root, "rev-parse", "--git-path", "hooks")
	if err != nil {
		return Place{}, "", fmt.Errorf("git hooks need a git repository: %w", err)
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	prefix, err := git.Line(ctx, root, "rev-parse", "--show-prefix")
	if err != nil {
		return Place{}, "", err
	}
	p := Place{Name: name, Dir: dir, Path: filepath.Join(dir, name)}
	if IsHusky(dir) {
		p.Path, p.Husky = filepath.Join(filepath.Dir(dir), name), true
	}
	return p, strings.TrimSuffix(prefix, "/"), nil
}

// IsHusky reports whether dir is husky 9's directory of stubs (.husky/_
// with its runner h), which run the scripts one level up.
func IsHusky(dir string) bool {
	if filepath.Base(dir) != "_" {
		return false
	}
	st, err := os.Stat(filepath.Join(dir, "h"))
	return err == nil && st.Mode().IsRegular()
}

// PreCommitConfig is the pre-commit framework's configuration, at the top
// of the work tree.
const PreCommitConfig = ".pre-commit-config.yaml"

// IsPreCommitHook reports whether a git hook script is the one the
// pre-commit framework installs (pre-commit install), which runs the hooks
// PreCommitConfig lists.
func IsPreCommitHook(script []byte) bool {
	return bytes.Contains(script, []byte("File generated by pre-commit")) || bytes.Contains(script, []byte("pre_commit hook-impl"))
}

// IsLefthookHook reports whether a git hook script is one lefthook
// installs (lefthook install), which runs lefthook's configuration.
func IsLefthookHook(script []byte) bool {
	return bytes.Contains(script, []byte("lefthook"))
}

// ConfigRunsIntenthook reports whether a pre-commit configuration runs
// intenthook precommit: a hook whose entry is it, or this repository's
// hook (id: intenthook).
func ConfigRunsIntenthook(data []byte) bool {
	for _, raw := range strings.Split(string(data), "\n") {
		line := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(raw), "- "))
		if strings.HasPrefix(line, "#") {
			continue
		}
		if k, v, ok := strings.Cut(line, ":"); ok {
			v = strings.Trim(strings.TrimSpace(v), `'"`)
			switch strings.TrimSpace(k) {
			case "id":
				if v == "intenthook" {
					return true
				}
			case "entry":
				if v == "intenthook precommit" || strings.HasPrefix(v, "intenthook precommit ") {
					return true
				}
			}
		}
	}
	return false
}

// AddLocalHook appends to a pre-commit configuration's repos: list an item
// of its own, a repo: local hook running entry (language: system, no file
// names, on every commit), after the list's last line; every other byte is
// as it was (a final line without its line break gets one). The item takes
// the list's indentation and the file's line breaks. A file without repos:
// gets one at its end; a repos: that is not a block list (repos: []) is an
// error: the item is added by hand.
func AddLocalHook(data []byte, entry string) ([]byte, error) {
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	nl := "\n"
	at, indent := -1, "  "
	for i, l := range lines {
		s := strings.TrimRight(string(l), "\r\n")
		if !strings.HasPrefix(s, "repos:") {
			continue
		}
		rest := strings.TrimSpace(strings.TrimPrefix(s, "repos:"))
		if rest != "" && !strings.HasPrefix(rest, "#") {
			return nil, fmt.Errorf("%s: repos: is not a list of items, one a line (%s)", PreCommitConfig, rest)
		}
		if strings.HasSuffix(string(l), "\r\n") {
			nl = "\r\n"
		}
		at = i
		found := false
		for j := i + 1; j < len(lines); j++ {
			t := strings.TrimRight(string(lines[j]), "\r\n")
			trimmed := strings.TrimLeft(t, " ")
			switch {
			case trimmed == "" || strings.HasPrefix(trimmed, "#"):
				continue
			case t == trimmed && !strings.HasPrefix(t, "- ") && t != "-":
				j = len(lines) // the next top-level key: the list ended
				continue
			}
			if !found && (strings.HasPrefix(trimmed, "- ") || trimmed == "-") {
				indent, found = t[:len(t)-len(trimmed)], true
			}
			at = j
		}
		break
	}
	item := indent + "- repo: local" + nl +
		indent + "  hooks:" + nl +
		indent + "    - id: intenthook" + nl +
		indent + "      name: intenthook precommit" + nl +
		indent + "      entry: " + entry + nl +
		indent + "      language: system" + nl +
		indent + "      pass_filenames: false" + nl +
		indent + "      always_run: true" + nl
	var out bytes.Buffer
	for i, l := range lines {
		out.Write(l)
		if i == at {
			if !bytes.HasSuffix(l, []byte("\n")) {
				out.WriteString(nl)
			}
			out.WriteString(item)
		}
	}
	if at < 0 {
		if len(data) > 0 && data[len(data)-1] != '\n' {
			out.WriteString(nl)
		}
		out.WriteString("repos:" + nl + item)
	}
	return out.Bytes(), nil
}
