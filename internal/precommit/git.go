package precommit

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/intenthook/intenthook/internal/gitcmd"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// git runs git commands in one directory. Commands are argument lists, never
// shell strings: paths and names from the repository reach git untouched.
type git struct {
	dir string
	env []string
}

func newGit(dir string) *git { return &git{dir: dir, env: gitEnv(os.Environ())} }

// gitEnv makes the paths git hands its hooks absolute: git may set
// GIT_INDEX_FILE (a partial commit's temporary index) or GIT_DIR relative to
// the directory it started in, and intenthook runs git from the workspace
// root, which need not be that directory.
func gitEnv(env []string) []string {
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

func (g *git) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir, cmd.Env = g.dir, g.env
	return cmd
}

// output runs git and returns its stdout; a failure carries git's stderr.
func (g *git) output(ctx context.Context, args ...string) ([]byte, error) {
	return gitcmd.Output(ctx, g.dir, g.env, args...)
}

// stagedPaths lists the paths the commit adds, copies, changes, renames or
// deletes, relative to the top of the work tree. Renames come as a deletion
// and an addition (--no-renames): both paths are judged.
func (g *git) stagedPaths(ctx context.Context) ([]string, error) {
	out, err := g.output(ctx, "diff", "--cached", "--name-only", "-z", "--diff-filter=ACMRD", "--no-renames")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	return paths, nil
}

// object is one reply of `git cat-file --batch`.
type object struct {
	Type string
	Size int64
	Body io.Reader // exactly Size bytes
}

// batchable reports whether a path can be asked for on cat-file's input,
// which is one name per line (a trailing CR is dropped by git).
func batchable(p string) bool {
	return !strings.ContainsRune(p, '\n') && !strings.HasSuffix(p, "\r")
}

// readIndex reads the index entries of paths (top-relative, each batchable)
// with one `git cat-file --batch` process, calling each with the position of
// the path and its object, or nil when the index has no entry for it (a
// staged deletion). Asking ":0:<path>" names stage 0 explicitly, so a path
// like "1:x" is not read as stage 1 of "x".
func (g *git) readIndex(ctx context.Context, paths []string, each func(i int, obj *object) error) (err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := g.command(ctx, "cat-file", "--batch", "--buffer")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git cat-file: %w", err)
	}
	// Requests go in from their own goroutine: git answers while it reads,
	// and a writer that waited for the reader would deadlock on full pipes.
	written := make(chan error, 1)
	go func() { written <- writeRequests(stdin, paths) }()
	readErr := readReplies(bufio.NewReaderSize(stdout, 64<<10), len(paths), each)
	if readErr != nil {
		cancel() // stop git, so that the writer and Wait return
	}
	writeErr := <-written
	waitErr := cmd.Wait()
	switch {
	case readErr != nil:
		return readErr
	case writeErr != nil:
		return fmt.Errorf("git cat-file: %w", writeErr)
	case waitErr != nil:
		msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()+" "+waitErr.Error()), "\n")
		return fmt.Errorf("git cat-file: %s", msg)
	}
	return nil
}

func writeRequests(w io.WriteCloser, paths []string) error {
	bw := bufio.NewWriter(w)
	for _, p := range paths {
		if _, err := bw.WriteString(":0:" + p + "\n"); err != nil {
			_ = w.Close()
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		_ = w.Close()
		return err
	}
	return w.Close()
}

// readReplies parses n replies: "<oid> <type> <size>\n<content>\n", or
// "<name> missing\n" for a name that resolves to nothing.
func readReplies(r *bufio.Reader, n int, each func(int, *object) error) error {
	for i := range n {
		header, err := r.ReadString('\n')
		if err != nil {
			return fmt.Errorf("git cat-file: reply %d: %w", i+1, err)
		}
		header = strings.TrimSuffix(header, "\n")
		if strings.HasSuffix(header, " missing") {
			if err := each(i, nil); err != nil {
				return err
			}
			continue
		}
		obj, err := parseHeader(header)
		if err != nil {
			return err
		}
		body := io.LimitReader(r, obj.Size)
		obj.Body = body
		if err := each(i, obj); err != nil {
			return err
		}
		// Whatever each left unread, and the newline after the content.
		if _, err := io.Copy(io.Discard, body); err != nil {
			return fmt.Errorf("git cat-file: %w", err)
		}
		if b, err := r.ReadByte(); err != nil || b != '\n' {
			return errors.New("git cat-file: reply not followed by a newline")
		}
	}
	return nil
}

func parseHeader(h string) (*object, error) {
	f := strings.Fields(h)
	if len(f) != 3 {
		return nil, fmt.Errorf("git cat-file: unexpected reply %q", h)
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || size < 0 {
		return nil, fmt.Errorf("git cat-file: unexpected reply %q", h)
	}
	return &object{Type: f[1], Size: size}, nil
}

// repoPaths converts between the paths git prints (relative to the top of
// the work tree) and workspace paths (relative to the workspace root), which
// differ when the root is a subdirectory of the repository, or holds it.
type repoPaths struct {
	prefix string // the root's path inside the work tree ("sub/"), or ""
	above  string // the work tree's path inside the root ("repo/"), or ""
}

// locate finds the work tree git uses from start and relates it to root.
func locate(ctx context.Context, start, root string) (*git, repoPaths, error) {
	out, err := newGit(start).output(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, repoPaths{}, fmt.Errorf("not in a git work tree: %w", err)
	}
	top := strings.TrimSuffix(string(out), "\n")
	g := newGit(top)
	rel, err := filepath.Rel(canonical(top), canonical(root))
	if err != nil {
		return nil, repoPaths{}, err
	}
	switch {
	case rel == ".":
		return g, repoPaths{}, nil
	case !escapes(rel):
		prefix, err := newGit(root).output(ctx, "rev-parse", "--show-prefix")
		if err != nil {
			return nil, repoPaths{}, err
		}
		return g, repoPaths{prefix: strings.TrimSuffix(string(prefix), "\n")}, nil
	}
	up, err := filepath.Rel(canonical(root), canonical(top))
	if err != nil || escapes(up) {
		return nil, repoPaths{}, fmt.Errorf("workspace root %s is neither inside nor above the git work tree %s", root, top)
	}
	return g, repoPaths{above: filepath.ToSlash(up) + "/"}, nil
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

// toRoot turns a git path into a workspace path; ok is false for a path
// outside the workspace.
func (rp repoPaths) toRoot(p string) (string, bool) {
	if rp.prefix != "" {
		rel, ok := strings.CutPrefix(p, rp.prefix)
		return rel, ok
	}
	return rp.above + p, true
}

// toGit turns a workspace path into a git path; ok is false for a path
// outside the work tree.
func (rp repoPaths) toGit(rel string) (string, bool) {
	if rp.above != "" {
		p, ok := strings.CutPrefix(rel, rp.above)
		return p, ok
	}
	return rp.prefix + rel, true
}
