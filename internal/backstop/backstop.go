// Package backstop catches what shell analysis cannot see (SPEC §8): before
// a shell command that may write, Take pictures the work tree (the paths
// git status reports as changed, each with its size and modification time,
// HEAD's reflog size and the branches' tips); after it, Compare lists what
// the command changed (in git status, or in the commits it made or brought
// into HEAD's history) and splits it by the active intent's scope, through
// a Call the gate answers. What becomes of an out-of-scope change (a
// violation record, a lesson, the answer Violation words) is the gate's.
//
// It runs git and reads the work tree; it reads neither the ledger nor
// session state, so that package state can keep its Picture.
package backstop

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/osfile"
)

// Picture is the work tree before a shell command.
type Picture struct {
	// Paths holds a mark and fingerprint of each path git status reported
	// before the call: "e" for a path in HEAD, "n" for a new one, then
	// its size and modification time ("" for a deleted one).
	Paths map[string]string
	// Reflog is the size of HEAD's reflog before the call: commits the
	// command made are read from what follows.
	Reflog int64
	// Head is HEAD's commit before the call, and Tips the local branches'
	// (TipsKnown: all of them could be read): a move of HEAD is judged by
	// the commits it brought that no branch held before.
	Head      string
	Tips      []string
	TipsKnown bool
	// Since is when the picture was taken, set by the caller from what it
	// stored with it (not encoded): a tag written after it excuses
	// nothing. Zero: every tag excuses.
	Since time.Time
}

// Take pictures the work tree under root; nil outside a git repository
// (or when git is missing).
func Take(ctx context.Context, root string) *Picture {
	paths, ok := dirtyPaths(ctx, root)
	if !ok {
		return nil
	}
	head, tips, known := git.BranchTips(root)
	return &Picture{Paths: paths, Reflog: git.ReflogSize(root), Head: head, Tips: tips, TipsKnown: known}
}

// Call is what the backstop asks of the hook call whose command ran.
type Call interface {
	// Excused reports whether a change to rel is not the command's to
	// answer for: the decision chain judged it already, intenthook keeps
	// it, the ignore file covers it, or another tool call wrote it.
	Excused(rel string) bool
	// InScope reports whether rel lies in the active intent's scope.
	InScope(rel string) bool
}

// Change is one path the command changed.
type Change struct {
	Rel string
	// Post is the digest of its content now, "" when it is gone.
	Post string
	// Existed says it was there before the command (in HEAD, or dirty
	// with content in the picture): the backstop keeps fingerprints, not
	// digests, so what it held is not known.
	Existed bool
	// Dirty says git status showed it changed before the command: what it
	// held then was nobody's commit, so a checkout would not give it back.
	Dirty bool
}

// Put is how a changed path is put back as it was before the command, by
// a command the session is then allowed to run (Revert); "" when no
// command can: it held uncommitted changes before the command.
func (c Change) Put() string {
	switch {
	case c.Dirty:
		return ""
	case c.Existed:
		return PutCheckout
	}
	return PutRemove
}

// The ways a path is put back.
const (
	PutCheckout = "checkout" // it was HEAD's, clean: git checkout -- FILE
	PutRemove   = "rm"       // the command created it: rm -- FILE
)

// Result is what Compare found: the changes in scope and those outside
// it, each sorted by path, and how many paths changed in all.
type Result struct {
	InScope, Outside []Change
	Changed          int
}

// Compare lists what the command changed since p and splits it by scope.
// Only the paths whose fingerprint moved are read.
func Compare(ctx context.Context, root string, p *Picture, call Call) Result {
	changed, after := changedSince(ctx, root, p)
	r := Result{Changed: len(changed)}
	for rel, post := range changed {
		if call.Excused(rel) {
			continue
		}
		_, dirty := p.Paths[rel]
		c := Change{Rel: rel, Post: post, Existed: existed(after[rel], p.Paths[rel]), Dirty: dirty}
		if call.InScope(rel) {
			r.InScope = append(r.InScope, c)
		} else {
			r.Outside = append(r.Outside, c)
		}
	}
	byPath := func(a, b Change) int { return strings.Compare(a.Rel, b.Rel) }
	slices.SortFunc(r.InScope, byPath)
	slices.SortFunc(r.Outside, byPath)
	return r
}

// existed reads a path's marks before and after the command.
func existed(after, before string) bool {
	return strings.HasPrefix(after, "e") || strings.HasPrefix(before, "e") || (len(before) > 1 && before[1:] != "")
}

// changedSince returns the paths whose size or modification time differs
// from the picture (new in git status, changed since, or restored to their
// committed state), each with the digest of its content now ("" when gone),
// and the marks git status gives now.
func changedSince(ctx context.Context, root string, p *Picture) (changed, after map[string]string) {
	after, ok := dirtyPaths(ctx, root)
	if !ok {
		return nil, nil
	}
	changed = map[string]string{}
	for rel, fp := range after {
		if old, seen := p.Paths[rel]; !seen || old != fp {
			changed[rel] = ""
		}
	}
	for rel, old := range p.Paths {
		if _, still := after[rel]; !still && fingerprint(filepath.Join(root, filepath.FromSlash(rel))) != old[1:] {
			changed[rel] = ""
		}
	}
	for rel := range committedSince(ctx, root, p) {
		changed[rel] = ""
	}
	for rel := range changed {
		changed[rel], _ = digest.File(filepath.Join(root, filepath.FromSlash(rel)))
	}
	return changed, after
}

// gitTimeout bounds the backstop's git status.
const gitTimeout = 5 * time.Second

// dirtyPaths returns the root-relative paths `git status` reports as
// created, changed or deleted, each with a mark and a fingerprint of its
// size and modification time: hashing every dirty file on every shell call
// would cost as much as the repository is large. It runs one git process:
// the root's place in the work tree is worked out here; the untracked cache
// is on; a core.fsmonitor program is never run (git's built-in monitor is
// used when the repository turns it on); and intenthook's own files are
// left out (.orchestration/ is the ledger's and the hooks' to account for,
// and the ledger is always dirty). ok is false outside a git repository (or
// when git is missing).
func dirtyPaths(ctx context.Context, root string) (map[string]string, bool) {
	top, gitDir, ok := git.Top(root)
	if !ok {
		return nil, false
	}
	prefix, err := filepath.Rel(canonicalDir(top), canonicalDir(root))
	if err != nil || prefix == ".." || strings.HasPrefix(prefix, "../") {
		return nil, false
	}
	pre := ""
	if prefix != "." {
		pre = filepath.ToSlash(prefix) + "/"
	}
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	args := []string{"-c", "core.untrackedCache=true"}
	if !git.BuiltinFSMonitor(gitDir) {
		args = append(args, "-c", "core.fsmonitor=false")
	}
	args = append(args, "status", "--porcelain=v2", "-z", "--untracked-files=all", "--no-renames", "--", ".", ":(exclude).orchestration")
	out, err := run(ctx, root, args...)
	if err != nil {
		return nil, false
	}
	paths := map[string]string{}
	for _, entry := range strings.Split(string(out), "\x00") {
		p, fresh, ok := porcelainPath(entry)
		if !ok {
			continue
		}
		rel, ok := strings.CutPrefix(p, pre)
		if !ok {
			continue
		}
		mark := "e" // in HEAD: the call did not create it
		if fresh {
			mark = "n"
		}
		paths[rel] = mark + fingerprint(filepath.Join(root, filepath.FromSlash(rel)))
	}
	return paths, true
}

// porcelainPath returns the path of one entry of `git status
// --porcelain=v2 -z`: changed ("1 XY sub mH mI mW hH hI path"), unmerged
// ("u XY sub m1 m2 m3 mW h1 h2 h3 path") and untracked ("? path") entries;
// fresh is set for a path not in HEAD (untracked, or added to the index).
func porcelainPath(entry string) (path string, fresh, ok bool) {
	fields := map[byte]int{'1': 8, 'u': 10, '?': 1}
	if entry == "" {
		return "", false, false
	}
	n, known := fields[entry[0]]
	if !known {
		return "", false, false
	}
	parts := strings.SplitN(entry, " ", n+1)
	if len(parts) != n+1 {
		return "", false, false
	}
	fresh = entry[0] == '?' || strings.HasPrefix(parts[1], "A")
	return parts[n], fresh, true
}

// fingerprint is a file's size, modification time and change time, ""
// when it is gone: a file rewritten in place with as many bytes and its
// modification time set back (touch -r) still differs by its change time.
func fingerprint(path string) string {
	st, err := os.Lstat(path)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%d:%d:%d", st.Size(), st.ModTime().UnixNano(), osfile.ChangeTime(st))
}

func canonicalDir(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// run runs git in root with arguments only: no event data reaches a
// shell. The environment is a hook's clean one (git.CleanEnv: no filter
// or replacement object of anyone's choosing; GIT_OPTIONAL_LOCKS=0 keeps
// git status from taking the index lock under the agent's own git
// commands).
func run(ctx context.Context, root string, args ...string) ([]byte, error) {
	return git.Output(ctx, root, gitEnv(root), args...)
}

// runFed is run with input on git's stdin.
func runFed(ctx context.Context, root string, input []byte, args ...string) ([]byte, error) {
	return git.OutputFed(ctx, root, gitEnv(root), input, args...)
}

// gitEnv is a hook's git environment (git.CleanEnv).
func gitEnv(string) []string { return git.CleanEnv() }
