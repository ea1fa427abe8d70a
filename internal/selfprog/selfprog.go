// Package selfprog tells whether a call of intenthook in a shell command
// runs this workspace's intenthook (SPEC §8), and words the refusal of a
// selection, submission or delegation through any other program:
//
//   - by its name alone: the intenthook on PATH, a person's install;
//   - by a path (node_modules/intenthook/bin/intenthook): intenthook when the
//     file is an installed binary, or the workspace's npm package's own, in
//     its own directory (the binary runs intenthook-full from beside the
//     name it was called by);
//   - under a package runner (npx --no-install, npm exec --no, pnpm exec,
//     yarn exec, bunx --no-install): intenthook when the first
//     node_modules/.bin/intenthook from where the runner starts its search
//     up is the workspace root's, npm's link to the package's own binary,
//     and no package.json on the way declares a bin named intenthook (npx
//     installs and runs that package's instead); with none there, the
//     runner runs the one on PATH, as the bare name does.
//
// Only a command that names intenthook pays for this: a few stats.
package selfprog

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/full"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/hookconfig"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/shell"
)

// Home is where a call runs: the workspace's root and the call's
// directory, both absolute.
type Home struct {
	Root, Cwd string
}

// Runs reports whether the call c runs this workspace's intenthook, and if
// not, why not.
func (h Home) Runs(c shell.SelfCall) (bool, string) {
	called := strings.Join(append([]string{cmp.Or(c.Program, hookconfig.Program)}, c.Args...), " ")
	if c.Runner != "" {
		called = c.Runner + " " + called
	}
	switch {
	case c.Fetches:
		return false, fmt.Sprintf("%s may download and run a package from the registry instead of the workspace's intenthook", called)
	case c.Unplaced:
		return false, fmt.Sprintf("the text of %s does not say which program it runs", called)
	case c.Path != "":
		if h.installedAt(h.abs(c.Path)) {
			return true, ""
		}
		return false, fmt.Sprintf("%s is not an installed intenthook", c.Path)
	case c.Runner != "":
		found, ok, why := h.runnerFinds(h.abs(c.Dir))
		if ok {
			return true, ""
		}
		return false, fmt.Sprintf("%s runs %s, %s", called, h.shown(found), why)
	}
	return true, ""
}

// abs is p, relative to the call's directory, made absolute.
func (h Home) abs(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(h.Cwd, p)
}

// shown is p as a person reads it: relative to the root when inside it.
func (h Home) shown(p string) string {
	if rel, err := filepath.Rel(h.Root, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return p
}

// npmPackage is the workspace's npm package's own binary, the program its
// hook wiring runs (a governance row: a command that replaces it is
// hook_replaced).
func (h Home) npmPackage() string {
	return filepath.Join(h.Root, filepath.FromSlash(hookconfig.NPMBinary))
}

// installedAt reports whether the program at p is intenthook: one of the
// installed binaries (full.Installed) or the workspace's npm package's,
// called in the directory it lives in (or npm's .bin beside it), so that
// the intenthook-full it runs from beside itself is the installed one too.
func (h Home) installedAt(p string) bool {
	st, err := os.Stat(p)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	dir, base := filepath.Dir(p), filepath.Base(p)
	pkg := h.npmPackage()
	homes := append(full.Installed(), filepath.Join(filepath.Dir(pkg), base), filepath.Join(h.Root, filepath.FromSlash(hookconfig.NPMLink)))
	for _, q := range homes {
		if filepath.Base(q) != base || !sameFile(dir, filepath.Dir(q)) {
			continue
		}
		if full.IsInstalled(p) || sameFile(p, pkg) {
			return true
		}
	}
	return false
}

// sameFile reports whether two paths name one file or directory, through
// any links.
func sameFile(a, b string) bool { return same(a, b, os.Stat) }

// sameEntry reports whether two paths name one directory entry: the same
// link, not only links to the same file.
func sameEntry(a, b string) bool { return same(a, b, os.Lstat) }

func same(a, b string, stat func(string) (os.FileInfo, error)) bool {
	if a == b {
		return true
	}
	sa, err := stat(a)
	if err != nil {
		return false
	}
	sb, err := stat(b)
	return err == nil && os.SameFile(sa, sb)
}

// runnerFinds is what a package runner that starts its search in dir runs
// for intenthook (npm exec's order: the first node_modules/.bin/intenthook
// from dir up, after a package.json there that declares a bin intenthook),
// and whether that is the workspace's package. found is "" when no
// directory holds one: the runner then runs intenthook from PATH.
func (h Home) runnerFinds(dir string) (found string, ok bool, why string) {
	link := filepath.Join(h.Root, filepath.FromSlash(hookconfig.NPMLink))
	inside := true
	for d := dir; ; {
		if inside && declaresBin(filepath.Join(d, "package.json")) {
			pj := filepath.Join(d, "package.json")
			return pj, false, "whose package.json declares a bin named intenthook: npx installs that package and runs its program"
		}
		cand := filepath.Join(d, "node_modules", ".bin", hookconfig.Program)
		if st, err := os.Stat(cand); err == nil && st.Mode().IsRegular() {
			if !sameEntry(cand, link) {
				return cand, false, "which is not npm's link in the workspace root (" + hookconfig.NPMLink + ")"
			}
			if !sameFile(cand, h.npmPackage()) {
				return cand, false, "which does not run the workspace's package (" + hookconfig.NPMBinary + ")"
			}
			return cand, true, ""
		}
		if sameFile(d, h.Root) {
			inside = false
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", true, ""
		}
		d = parent
	}
}

// declaresBin reports whether the package.json at path declares a program
// named intenthook: in bin, a string bin of a package named intenthook, or
// a bin directory (whose files are all bins).
func declaresBin(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var pj struct {
		Name        string          `json:"name"`
		Bin         json.RawMessage `json:"bin"`
		Directories struct {
			Bin string `json:"bin"`
		} `json:"directories"`
	}
	if json.Unmarshal(data, &pj) != nil {
		return true // npm would refuse it, but the hook cannot tell what it declares
	}
	if pj.Directories.Bin != "" {
		return true
	}
	var one string
	if json.Unmarshal(pj.Bin, &one) == nil {
		name := pj.Name[strings.LastIndex(pj.Name, "/")+1:]
		return one != "" && name == hookconfig.Program
	}
	var many map[string]json.RawMessage
	if json.Unmarshal(pj.Bin, &many) == nil {
		_, ok := many[hookconfig.Program]
		return ok
	}
	return false
}

// Deny refuses a selection, submission or delegation whose program
// is not the workspace's intenthook, naming the form that runs it.
func (h Home) Deny(c shell.SelfCall, why, command, session string) hook.Decision {
	what := map[shell.SelfKind]string{shell.SelfSelect: "selection", shell.SelfDelegate: "delegation", shell.SelfSubmit: "submission"}[c.Kind]
	args := strings.Join(c.Args, " ")
	instead := fmt.Sprintf("run `%s %s` alone, as the whole command", full.Invocation(), args)
	if c.Fetches {
		instead = fmt.Sprintf("run `%s %s` alone, as the whole command: it never downloads", neverFetches(c.Runner), args)
	} else if _, err := os.Stat(h.npmPackage()); err == nil {
		rel, err := filepath.Rel(h.Cwd, h.npmPackage())
		if err != nil {
			rel = h.npmPackage()
		}
		instead = fmt.Sprintf("run `npx --no-install intenthook %s` from the workspace root, or `%s %s`, alone, as the whole command", args, filepath.ToSlash(rel), args)
	}
	return hook.Denial{
		Code:     hook.CodeShellUnsafe,
		Headline: "the hook performs no " + what + " through a program that is not this workspace's intenthook: " + safetext.OneLine(why),
		Why:      "a " + what + " is performed by the hook for the intenthook installed here (on PATH, " + hookconfig.NPMBinary + ", or npm's link " + hookconfig.NPMLink + " in the workspace root); another program could print anything and change files unwatched",
		Instead:  instead,
		Evidence: []string{hook.Ev("command", safetext.OneLine(command)), hook.Ev("session", session)},
	}.Decision()
}

// neverFetches is the form of a package runner that runs only what is
// installed.
func neverFetches(runner string) string {
	switch runner {
	case "npm exec", "npm x":
		return "npm exec --no -- intenthook"
	case "pnpm dlx", "pnpx":
		return "pnpm exec intenthook"
	case "yarn dlx":
		return "yarn exec intenthook"
	case "bunx", "bun x":
		return runner + " --no-install intenthook"
	}
	return full.NPXForm
}
