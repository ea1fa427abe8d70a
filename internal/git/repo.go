package git

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Repo runs git commands in one directory with one environment.
type Repo struct {
	Dir string
	Env []string // nil: the process's environment
}

// Open returns a Repo for dir whose environment is the process's, with the
// paths git hands its hooks made absolute (see HookEnv).
func Open(dir string) *Repo { return &Repo{Dir: dir, Env: HookEnv(os.Environ())} }

// HookEnv makes the paths git hands its hooks absolute: git may set
// GIT_INDEX_FILE (a partial commit's temporary index) or GIT_DIR relative to
// the directory it started in, and intenthook runs git from the workspace
// root, which need not be that directory.
func HookEnv(env []string) []string {
	wd, err := os.Getwd()
	if err != nil {
		return env
	}
	out := make([]string, 0, len(env))
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "GIT_INDEX_FILE", "GIT_DIR", "GIT_WORK_TREE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR":
			if v != "" && !filepath.IsAbs(v) {
				kv = k + "=" + filepath.Join(wd, v)
			}
		}
		out = append(out, kv)
	}
	return out
}

// Command prepares git args in the Repo's directory and environment.
func (r *Repo) Command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir, cmd.Env = r.Dir, r.Env
	return cmd
}

// Output runs git args and returns its standard output; a failure carries
// git's stderr.
func (r *Repo) Output(ctx context.Context, args ...string) ([]byte, error) {
	return Output(ctx, r.Dir, r.Env, args...)
}

// Line runs git args and returns its output without the final newline.
func (r *Repo) Line(ctx context.Context, args ...string) (string, error) {
	out, err := r.Output(ctx, args...)
	return strings.TrimSuffix(string(out), "\n"), err
}

// NulList splits git's -z output into its non-empty entries.
func NulList(out []byte) []string {
	var list []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			list = append(list, p)
		}
	}
	return list
}

// Paths converts between the paths git prints (relative to the top of the
// work tree) and workspace paths (relative to the workspace root), which
// differ when the root is a subdirectory of the repository, or holds it.
type Paths struct {
	prefix string // the root's path inside the work tree ("sub/"), or ""
	above  string // the work tree's path inside the root ("repo/"), or ""
}

// Locate finds the work tree git uses from start and relates it to root. The
// Repo it returns runs in the top of the work tree.
func Locate(ctx context.Context, start, root string) (*Repo, Paths, error) {
	top, err := Open(start).Line(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, Paths{}, fmt.Errorf("not in a git work tree: %w", err)
	}
	r := Open(top)
	rel, err := filepath.Rel(canonical(top), canonical(root))
	if err != nil {
		return nil, Paths{}, err
	}
	switch {
	case rel == ".":
		return r, Paths{}, nil
	case !escapes(rel):
		prefix, err := Open(root).Line(ctx, "rev-parse", "--show-prefix")
		if err != nil {
			return nil, Paths{}, err
		}
		return r, Paths{prefix: prefix}, nil
	}
	up, err := filepath.Rel(canonical(root), canonical(top))
	if err != nil || escapes(up) {
		return nil, Paths{}, fmt.Errorf("workspace root %s is neither inside nor above the git work tree %s", root, top)
	}
	return r, Paths{above: filepath.ToSlash(up) + "/"}, nil
}

func canonical(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

func escapes(rel string) bool {
	return rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// ToRoot turns a git path into a workspace path; ok is false for a path
// outside the workspace.
func (p Paths) ToRoot(gitPath string) (string, bool) {
	if p.prefix != "" {
		return strings.CutPrefix(gitPath, p.prefix)
	}
	return p.above + gitPath, true
}

// ToGit turns a workspace path into a git path; ok is false for a path
// outside the work tree.
func (p Paths) ToGit(rel string) (string, bool) {
	if p.above != "" {
		return strings.CutPrefix(rel, p.above)
	}
	return p.prefix + rel, true
}

// FirstRemoved reads a unified diff with no context and returns the
// old-side line number of its first removed line.
func FirstRemoved(diff []byte) (line int, removed bool) {
	old, inHunk := 0, false
	for _, l := range bytes.Split(diff, []byte("\n")) {
		switch {
		case bytes.HasPrefix(l, []byte("diff --git ")):
			inHunk = false
		case bytes.HasPrefix(l, []byte("@@ -")):
			inHunk = true
			// @@ -start[,count] +start[,count] @@
			f := strings.Fields(string(l))
			if len(f) > 1 {
				start, _, _ := strings.Cut(strings.TrimPrefix(f[1], "-"), ",")
				old, _ = strconv.Atoi(start)
			}
		case !inHunk: // the file header: ---, +++, index lines
		case len(l) > 0 && l[0] == '-':
			return old, true
		}
	}
	return 0, false
}

// ByteDiff is how every diff of ledger content is asked for: bytes as
// they are, whatever the attributes say (--text: a -diff or binary
// attribute, which the changed branch can set itself, would otherwise
// make git print "Binary files differ" and no hunk), no external diff, no
// text conversion, no colour. args come after the subcommand's name.
func ByteDiff(subcommand string, args ...string) []string {
	return append([]string{subcommand, "--text", "--no-color", "--no-ext-diff", "--no-textconv"}, args...)
}

// DefaultRange is the merge base with the default branch (origin's HEAD,
// else main, else master) up to HEAD: what a pull request adds.
func (r *Repo) DefaultRange(ctx context.Context) (string, error) {
	candidates := []string{"main", "master"}
	if ref, err := r.Line(ctx, "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"); err == nil && ref != "" {
		candidates = append([]string{ref}, candidates...)
	}
	for _, b := range candidates {
		if base, err := r.Line(ctx, "merge-base", b, "HEAD"); err == nil && base != "" {
			return base + "..HEAD", nil
		}
	}
	return "", fmt.Errorf("no default branch (origin/HEAD, main, master) to start the range from: give a REVISION-RANGE")
}
