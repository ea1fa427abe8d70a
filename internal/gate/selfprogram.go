package gate

import (
	"context"
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

// identifySelf finds out which program each call of intenthook in a shell
// command runs (SPEC §8), before a selection, submission or delegation the
// whole command makes is performed for the session:
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
// A select, submit or delegation through a runner that may download the
// package, or through any other program, is denied (shell_unsafe): nothing
// is selected. A lever stays a lever wherever it runs from; any other call
// of a program that is not intenthook is taken out of a.Self and left to
// the shell's rules, as any program the agent runs.
//
// Only a command that names intenthook pays for this: a few stats.
func (g *Gate) identifySelf(a *shell.Analysis) (hook.Decision, bool) {
	if len(a.Self) == 0 {
		return hook.Decision{}, false
	}
	kept := a.Self[:0:0]
	for _, c := range a.Self {
		ok, why := g.selfProgram(c)
		if ok {
			kept = append(kept, c)
			continue
		}
		switch c.Kind {
		case shell.SelfSelect, shell.SelfDelegate, shell.SelfSubmit:
			g.explain.step("shell", "self", why)
			return g.denyNotSelf(c, why), true
		case shell.SelfLever:
			kept = append(kept, c) // a lever is refused whatever answers it
		default:
			g.explain.step("shell", "self", why+": judged as any program")
		}
	}
	a.Self = kept
	return hook.Decision{}, false
}

// selfProgram reports whether the call c runs this workspace's intenthook,
// and if not, why not.
func (g *Gate) selfProgram(c shell.SelfCall) (bool, string) {
	called := strings.Join(append([]string{cmpOr(c.Program, "intenthook")}, c.Args...), " ")
	if c.Runner != "" {
		called = c.Runner + " " + called
	}
	switch {
	case c.Fetches:
		return false, fmt.Sprintf("%s may download and run a package from the registry instead of the workspace's intenthook", called)
	case c.Unplaced:
		return false, fmt.Sprintf("the text of %s does not say which program it runs", called)
	case c.Path != "":
		if g.installedAt(g.abs(c.Path)) {
			return true, ""
		}
		return false, fmt.Sprintf("%s is not an installed intenthook", c.Path)
	case c.Runner != "":
		found, ok, why := g.runnerFinds(g.abs(c.Dir))
		if ok {
			return true, ""
		}
		return false, fmt.Sprintf("%s runs %s, %s", called, g.shown(found), why)
	}
	return true, ""
}

func cmpOr(s, or string) string {
	if s == "" {
		return or
	}
	return s
}

// abs is p, relative to the call's directory, made absolute.
func (g *Gate) abs(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(g.cwd(), p)
}

// shown is p as a person reads it: relative to the root when inside it.
func (g *Gate) shown(p string) string {
	if rel, err := filepath.Rel(g.Root, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return p
}

// npmPackage is the workspace's npm package's own binary, the program its
// hook wiring runs (a governance row: a command that replaces it is
// hook_replaced).
func (g *Gate) npmPackage() string {
	return filepath.Join(g.Root, filepath.FromSlash(hookconfig.NPMBinary))
}

// installedAt reports whether the program at p is intenthook: one of the
// installed binaries (full.Installed) or the workspace's npm package's,
// called in the directory it lives in (or npm's .bin beside it), so that
// the intenthook-full it runs from beside itself is the installed one too.
func (g *Gate) installedAt(p string) bool {
	st, err := os.Stat(p)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	dir, base := filepath.Dir(p), filepath.Base(p)
	pkg := g.npmPackage()
	homes := append(full.Installed(), filepath.Join(filepath.Dir(pkg), base), filepath.Join(g.Root, filepath.FromSlash(hookconfig.NPMLink)))
	for _, q := range homes {
		if filepath.Base(q) != base || !sameDir(dir, filepath.Dir(q)) {
			continue
		}
		if full.IsInstalled(p) || sameFile(p, pkg) {
			return true
		}
	}
	return false
}

func sameDir(a, b string) bool {
	if a == b {
		return true
	}
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}

func sameFile(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}

// runnerFinds is what a package runner that starts its search in dir runs
// for intenthook (npm exec's order: the first node_modules/.bin/intenthook
// from dir up, after a package.json there that declares a bin intenthook),
// and whether that is the workspace's package. found is "" when no
// directory holds one: the runner then runs intenthook from PATH.
func (g *Gate) runnerFinds(dir string) (found string, ok bool, why string) {
	link := filepath.Join(g.Root, filepath.FromSlash(hookconfig.NPMLink))
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
			if !sameFile(cand, g.npmPackage()) {
				return cand, false, "which does not run the workspace's package (" + hookconfig.NPMBinary + ")"
			}
			return cand, true, ""
		}
		if sameDir(d, g.Root) {
			inside = false
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", true, ""
		}
		d = parent
	}
}

// sameEntry reports whether two paths name one directory entry: the same
// link, not only links to the same file.
func sameEntry(a, b string) bool {
	if a == b {
		return true
	}
	sa, err := os.Lstat(a)
	if err != nil {
		return false
	}
	sb, err := os.Lstat(b)
	return err == nil && os.SameFile(sa, sb)
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

// denyNotSelf refuses a selection, submission or delegation whose program
// is not the workspace's intenthook, naming the form that runs it.
func (g *Gate) denyNotSelf(c shell.SelfCall, why string) hook.Decision {
	what := map[shell.SelfKind]string{shell.SelfSelect: "selection", shell.SelfDelegate: "delegation", shell.SelfSubmit: "submission"}[c.Kind]
	args := strings.Join(c.Args, " ")
	instead := fmt.Sprintf("run `%s %s` alone, as the whole command", full.Invocation(), args)
	if c.Fetches {
		instead = fmt.Sprintf("run `%s %s` alone, as the whole command: it never downloads", neverFetches(c.Runner), args)
	} else if _, err := os.Stat(g.npmPackage()); err == nil {
		rel, err := filepath.Rel(g.cwd(), g.npmPackage())
		if err != nil {
			rel = g.npmPackage()
		}
		instead = fmt.Sprintf("run `npx --no-install intenthook %s` from the workspace root, or `%s %s`, alone, as the whole command", args, filepath.ToSlash(rel), args)
	}
	return hook.Denial{
		Code:     hook.CodeShellUnsafe,
		Headline: "the hook performs no " + what + " through a program that is not this workspace's intenthook: " + safetext.OneLine(why),
		Why:      "a " + what + " is performed by the hook for the intenthook installed here (on PATH, " + hookconfig.NPMBinary + ", or npm's link " + hookconfig.NPMLink + " in the workspace root); another program could print anything and change files unwatched",
		Instead:  instead,
		Evidence: []string{hook.Ev("command", safetext.OneLine(g.call.Command)), hook.Ev("session", g.call.SessionID)},
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

// watchRunner leaves the backstop's and the guard's pictures for the post
// of a selection or delegation the hook performed for a command that runs
// intenthook through a package runner or by a path: the runner reads the
// project's configuration (npm's .npmrc can name the shell that runs the
// command, script-shell), which a program of the agent's may have written,
// so the command is watched like any other. intenthook run by its name
// needs no pictures.
func (g *Gate) watchRunner(ctx context.Context, a shell.Analysis, d hook.Decision, err error) {
	if err != nil || d.Verdict == hook.Deny || len(a.Self) != 1 || a.Self[0].Runner == "" && a.Self[0].Path == "" {
		return
	}
	g.watchCommand(ctx)
}
