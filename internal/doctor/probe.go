package doctor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/githooks"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/workspace"
)

// ProbeTimeout bounds doctor --hooks' probe commit: the check out, the
// hooks git runs, the removal of the work tree after.
const ProbeTimeout = 60 * time.Second

// probeName names the check doctor --hooks adds.
const probeName = "git pre-commit probe"

// probePaths are the files the probe commit may add, tried in turn: the
// first that no intent owns and no ignore file leaves out.
var probePaths = []string{"intenthook-doctor-probe.txt", "intenthook-doctor-probe/probe.txt", ".intenthook-doctor-probe/probe.txt"}

// hookConfigs are the files at the top of a work tree that hook managers
// read when git runs their hook: the probe's work tree gets the checked-out
// work tree's copies, so that it commits as the next commit here would.
var hookConfigs = []string{".pre-commit-config.yaml", "lefthook.yml", "lefthook.yaml", ".lefthook.yml"}

// probeEnv is what the probe's git may not inherit: variables that point
// git at another repository, index or work tree (doctor run from a hook).
var probeEnv = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR", "GIT_PREFIX", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_CEILING_DIRECTORIES"}

// probeHooks proves the pre-commit chain with a real commit: in a
// throwaway work tree of HEAD (git worktree add --detach, in a temporary
// directory), it stages a file outside every intent and runs git commit,
// git's own hook machinery deciding what runs (core.hooksPath, husky,
// pre-commit, lefthook), with INTENTHOOK_PRECOMMIT_AS=agent so that
// people.commits: free cannot let it through as a person's. The commit
// must be refused, and by intenthook precommit. The work tree is removed
// afterwards whatever happened, and git's list of work trees pruned: no
// branch, no work tree, no file here is left (what git add wrote to the
// object store is unreachable, for git's gc). The hook configuration this
// work tree holds (the hooks directory when core.hooksPath puts it in the
// tree, husky's scripts, pre-commit's and lefthook's files) is copied over
// HEAD's, and node_modules linked, so that the probe runs what a commit
// here would.
func probeHooks(ctx context.Context, root string, gitOK bool, timeout time.Duration) Check {
	if !gitOK {
		return Check{Status: Skip, Name: probeName, Detail: "no git"}
	}
	top, err := git.Line(ctx, root, "rev-parse", "--show-toplevel")
	if err != nil {
		return Check{Status: Skip, Name: probeName, Detail: "not a git repository"}
	}
	prefix, err := git.Line(ctx, root, "rev-parse", "--show-prefix")
	if err != nil {
		return Check{Status: Skip, Name: probeName, Detail: err.Error()}
	}
	catalog := filepath.ToSlash(filepath.Join(prefix, intents.File))
	if _, err := git.Line(ctx, root, "cat-file", "-e", "HEAD:"+catalog); err != nil {
		return Check{Status: Warn, Name: probeName, Detail: "HEAD holds no " + intents.File + ": a commit is judged by HEAD's rules, and there are none yet to refuse it",
			Hint: "commit the workspace (the commit that adopts the rules), then run intenthook doctor --hooks"}
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	tmp, err := os.MkdirTemp("", "intenthook-probe-")
	if err != nil {
		return Check{Status: Fail, Name: probeName, Detail: "a temporary directory: " + err.Error()}
	}
	p := &commitProbe{top: top, tmp: tmp, wt: filepath.Join(tmp, "work")}
	defer p.remove()
	c := p.run(ctx, root, prefix)
	if ctx.Err() != nil {
		return Check{Status: Fail, Name: probeName, Detail: fmt.Sprintf("timed out after %s: a hook waits, or the check-out is slow", timeout),
			Hint: "run git commit by hand on an out-of-scope change and see which hook hangs"}
	}
	return c
}

// commitProbe is one probe commit's throwaway work tree.
type commitProbe struct {
	top   string   // the work tree doctor checks
	tmp   string   // the temporary directory
	wt    string   // the probe's work tree inside it
	links []string // node_modules links made in wt, removed before it
	added bool     // git worktree add ran
}

func (p *commitProbe) run(ctx context.Context, root, prefix string) Check {
	// No hook runs for the check-out (git worktree add runs post-checkout).
	p.added = true
	if out, err := p.git(ctx, p.top, nil, "-c", "core.hooksPath="+filepath.Join(p.tmp, "no-hooks"), "worktree", "add", "--detach", "--quiet", p.wt, "HEAD"); err != nil {
		return Check{Status: Fail, Name: probeName, Detail: "git worktree add: " + failure(out, err)}
	}
	hooks, err := git.Line(ctx, p.top, "rev-parse", "--git-path", "hooks")
	if err != nil {
		return Check{Status: Fail, Name: probeName, Detail: err.Error()}
	}
	if !filepath.IsAbs(hooks) {
		hooks = filepath.Join(p.top, hooks)
	}
	staged, err := p.mirror(hooks)
	if err != nil {
		return Check{Status: Fail, Name: probeName, Detail: "copy the hook configuration: " + err.Error()}
	}
	proot := filepath.Join(p.wt, filepath.FromSlash(prefix))
	rel, ok := outsideEveryIntent(proot)
	if !ok {
		return Check{Status: Warn, Name: probeName, Detail: "no file the probe may add lies outside every intent: " + strings.Join(probePaths, ", ") + " are owned or ignored",
			Hint: "nothing to probe with; doctor's git pre-commit line reads the hook as sh runs it"}
	}
	file := filepath.Join(proot, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return Check{Status: Fail, Name: probeName, Detail: err.Error()}
	}
	if err := os.WriteFile(file, []byte("intenthook doctor --hooks: a change outside every intent, which the commit must refuse\n"), 0o644); err != nil {
		return Check{Status: Fail, Name: probeName, Detail: err.Error()}
	}
	if out, err := p.git(ctx, p.wt, nil, append([]string{"add", "--"}, append(staged, filepath.Join(filepath.FromSlash(prefix), filepath.FromSlash(rel)))...)...); err != nil {
		return Check{Status: Fail, Name: probeName, Detail: "git add: " + failure(out, err)}
	}
	trace := filepath.Join(p.tmp, "trace")
	env := append(probeEnviron(), "INTENTHOOK_PRECOMMIT_AS=agent", "GIT_TRACE="+trace)
	out, err := p.git(ctx, proot, env, "-c", "commit.gpgSign=false", "commit", "-q", "-m", "intenthook doctor --hooks probe")
	if ctx.Err() != nil {
		return Check{}
	}
	ran := p.show(hookRan(trace))
	committed := err == nil
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return Check{Status: Fail, Name: probeName, Detail: "git commit: " + failure(out, err)}
	}
	refused := bytes.Contains(out, []byte("error out_of_scope "+rel+":")) && bytes.Contains(out, []byte("precommit: commit refused"))
	switch {
	case committed && ran == "":
		return Check{Status: Fail, Name: probeName, Detail: "a commit of " + safetext.Quote(rel) + ", outside every intent, went through: git ran no pre-commit hook",
			Hint: "intenthook init --git-hook installs one where git looks for it"}
	case committed:
		return Check{Status: Fail, Name: probeName, Detail: "a commit of " + safetext.Quote(rel) + ", outside every intent, went through: git ran " + ran + ", and intenthook precommit did not refuse it" + lastLine(out),
			Hint: "intenthook init --git-hook chains the hook that is there and runs intenthook precommit after it, its status deciding the commit"}
	case !refused:
		return Check{Status: Fail, Name: probeName, Detail: "the commit was refused, but not by intenthook precommit: git ran " + orNone(ran) + lastLine(out),
			Hint: "run the commit by hand (git commit in a clean checkout) and see what the hook prints"}
	}
	return Check{Status: Pass, Name: probeName, Detail: "a commit of " + safetext.Quote(rel) + ", outside every intent, judged as an agent's, was refused by intenthook precommit, run from " + ran + " (in a throwaway work tree, removed)"}
}

// git runs git in dir with env (nil: doctor's, without probeEnv), in a
// process group of its own that a timeout kills whole (a hook's children
// too); it returns stdout and stderr together.
func (p *commitProbe) git(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	if env == nil {
		env = probeEnviron()
	}
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = time.Second // a child left holding the output must not hold doctor
	ownGroup(cmd)
	err := cmd.Run()
	endGroup(cmd)
	return out.Bytes(), err
}

// failure is a git command's failure as one line: the first of what it
// printed, else the error.
func failure(out []byte, err error) string {
	msg := strings.TrimSpace(string(out))
	if msg == "" {
		return err.Error()
	}
	line, _, _ := strings.Cut(msg, "\n")
	return line
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// remove takes the work tree away, and git's record of it: links first
// (never followed), then the tree, the directory, and a prune. It has its
// own time: the probe's may be spent.
func (p *commitProbe) remove() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, l := range p.links {
		_ = os.Remove(l)
	}
	if p.added {
		_, _ = p.git(ctx, p.top, nil, "worktree", "remove", "--force", p.wt)
	}
	_ = os.RemoveAll(p.tmp)
	_, _ = p.git(ctx, p.top, nil, "worktree", "prune")
}

// mirror copies the hook configuration of the work tree doctor checks
// over HEAD's in the probe's: the hooks directory when it lies in the
// work tree (core.hooksPath .githooks, husky's .husky/_, which is never
// committed), husky's scripts, pre-commit's and lefthook's files. It links
// node_modules (husky puts node_modules/.bin on PATH; npx finds the
// project's intenthook there). It returns the files to stage with the
// probe's change: pre-commit refuses a commit while its file has unstaged
// changes.
func (p *commitProbe) mirror(hooks string) ([]string, error) {
	var stage []string
	if rel, ok := inTree(p.top, hooks); ok && !strings.HasPrefix(rel+"/", ".git/") && isDir(hooks) {
		err := filepath.WalkDir(hooks, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			r, _ := filepath.Rel(p.top, path)
			_, err = p.copy(r)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	files := hookConfigs
	if githooks.IsHusky(hooks) {
		base := filepath.Dir(hooks)
		for _, name := range []string{"pre-commit", "commit-msg"} {
			if rel, ok := inTree(p.top, filepath.Join(base, name)); ok {
				files = append(files[:len(files):len(files)], rel)
			}
		}
	}
	for _, rel := range files {
		changed, err := p.copy(rel)
		if err != nil {
			return nil, err
		}
		if changed && contains(hookConfigs, rel) {
			stage = append(stage, rel)
		}
	}
	if _, err := os.Stat(filepath.Join(p.top, "node_modules")); err == nil {
		link := filepath.Join(p.wt, "node_modules")
		if _, err := os.Lstat(link); errors.Is(err, fs.ErrNotExist) {
			// Without the link (Windows without the right to make one) the
			// probe runs as a fresh clone would.
			if os.Symlink(filepath.Join(p.top, "node_modules"), link) == nil {
				p.links = append(p.links, link)
			}
		}
	}
	return stage, nil
}

func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// copy writes the work tree's file rel over the probe's when they differ,
// keeping its mode; a file the work tree does not hold is left as HEAD has
// it.
func (p *commitProbe) copy(rel string) (bool, error) {
	src := filepath.Join(p.top, rel)
	st, err := os.Lstat(src)
	if err != nil || !st.Mode().IsRegular() {
		return false, nil
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return false, err
	}
	dst := filepath.Join(p.wt, rel)
	if old, err := os.ReadFile(dst); err == nil && bytes.Equal(old, data) {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return false, err
	}
	if err := os.WriteFile(dst, data, st.Mode().Perm()); err != nil {
		return false, err
	}
	return true, os.Chmod(dst, st.Mode().Perm())
}

// show names a hook file git ran: relative to the probe's work tree (the
// same place in this one) or to this one (its .git/hooks), else as git
// gave it.
func (p *commitProbe) show(path string) string {
	if path == "" {
		return ""
	}
	if !filepath.IsAbs(path) {
		return filepath.ToSlash(path)
	}
	for _, top := range []string{p.wt, p.top} {
		if rel, ok := inTree(top, path); ok {
			return rel
		}
	}
	return path
}

// inTree says path's place in the tree at top, when it lies inside it.
func inTree(top, path string) (string, bool) {
	rel, err := filepath.Rel(top, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// hookRan reads git's trace for the pre-commit hook it ran: the program
// of a run_command line (after the variables git sets for it) named
// pre-commit. "" when git ran none.
func hookRan(trace string) string {
	data, err := os.ReadFile(trace)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		_, rest, ok := strings.Cut(line, "trace: run_command: ")
		if !ok {
			continue
		}
		for _, f := range strings.Fields(rest) {
			if isAssignment(f) {
				continue // GIT_INDEX_FILE=… and the like
			}
			f = strings.Trim(f, `'"`)
			if filepath.Base(f) == "pre-commit" {
				return f
			}
			break
		}
	}
	return ""
}

// isAssignment reports whether a word is a variable's assignment
// (NAME=value), as git's trace writes the variables it sets for a hook.
func isAssignment(word string) bool {
	name, _, ok := strings.Cut(word, "=")
	if !ok || name == "" {
		return false
	}
	for i, r := range name {
		if r != '_' && (r < 'A' || r > 'Z') && (r < 'a' || r > 'z') && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// outsideEveryIntent picks the probe's file in the work tree at root: the
// first of probePaths no intent of its catalog owns (whatever its status:
// the probe must not depend on which are started) and no ignore file
// leaves out.
func outsideEveryIntent(root string) (string, bool) {
	c, err := intents.Load(filepath.Join(root, filepath.FromSlash(intents.File)))
	if err != nil {
		return probePaths[0], true // precommit refuses an unreadable catalog
	}
	ig, err := workspace.LoadIgnore(root)
	if err != nil {
		ig = workspace.ParseIgnore()
	}
	for _, rel := range probePaths {
		owned := ig.Match(rel, false)
		for _, in := range c.All() {
			if _, ok := in.Match(rel); ok {
				owned = true
			}
		}
		if !owned {
			return rel, true
		}
	}
	return "", false
}

// probeEnviron is doctor's environment without the variables that point
// git elsewhere.
func probeEnviron() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !contains(probeEnv, k) {
			out = append(out, kv)
		}
	}
	return out
}

// lastLine is the hook's last line of output, for a probe that failed.
func lastLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if last := strings.TrimSpace(lines[len(lines)-1]); last != "" {
		return " (last output: " + safetext.Quote(safetext.Clip(last, 200)) + ")"
	}
	return ""
}

func orNone(ran string) string {
	if ran == "" {
		return "no pre-commit hook"
	}
	return ran
}
