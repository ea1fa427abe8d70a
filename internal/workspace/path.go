package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// Where a resolved path lies.
type Place int

// Places of a resolved path.
const (
	Inside  Place = iota // under the root
	Temp                 // outside the root, under an allowed temporary directory
	Outside              // anywhere else
)

// Resolved is a target path after step 6 of the chain.
type Resolved struct {
	Given string // as the agent named it
	Abs   string // absolute, symlinks resolved
	// Linked reports that symlinks took the path somewhere other than
	// its lexical location.
	Linked bool
	Rel    string // root-relative with / separators; "" unless Inside
	Place  Place
}

// Resolver resolves an agent's paths against one root.
type Resolver struct {
	root     string // symlinks resolved
	cwd      string
	allowOut []string // outside_allow globs, env-expanded and resolved
}

// NewResolver prepares resolution against root for an event whose cwd is cwd
// (or the process working directory when the event has none). outsideAllow
// holds globs of absolute paths ($VAR expanded) that are temp space.
func NewResolver(root, cwd string, outsideAllow []string, getenv func(string) string) *Resolver {
	r := &Resolver{root: realPath(root), cwd: cwd}
	for _, g := range outsideAllow {
		g = os.Expand(g, func(k string) string {
			v := getenv(k)
			if k == "TMPDIR" && v == "" {
				v = os.TempDir()
			}
			return v
		})
		if !filepath.IsAbs(g) {
			continue
		}
		r.allowOut = append(r.allowOut, filepath.ToSlash(filepath.Clean(g)))
		// /tmp may itself be a symlink (/private/tmp on macOS).
		base, rest := globBase(g)
		if real := realPath(base); real != base {
			r.allowOut = append(r.allowOut, filepath.ToSlash(filepath.Join(real, rest)))
		}
	}
	return r
}

// Root returns the resolved root.
func (r *Resolver) Root() string { return r.root }

// Resolve places p relative to the root.
func (r *Resolver) Resolve(p string) Resolved {
	res := Resolved{Given: p}
	abs := p
	if !filepath.IsAbs(abs) {
		base, err := filepath.Abs(r.cwd) // "" and relative cwds: the process's
		if err != nil {
			return Resolved{Given: p, Place: Outside}
		}
		abs = filepath.Join(base, abs)
	}
	lexical := filepath.Clean(abs)
	res.Abs = realPath(lexical)
	if rel, ok := within(r.root, lexical); ok {
		res.Linked = rel != mustRel(r.root, res.Abs)
	} else {
		res.Linked = res.Abs != lexical
	}
	if rel, ok := within(r.root, res.Abs); ok {
		res.Rel, res.Place = rel, Inside
		return res
	}
	res.Place = Outside
	for _, g := range r.allowOut {
		if ok, _ := matchAbs(g, filepath.ToSlash(res.Abs)); ok {
			res.Place = Temp
			break
		}
	}
	return res
}

// within reports p's root-relative form when p is root or under it.
func within(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// realPath resolves the symlinks of the longest existing prefix of p, and a
// dangling symlink at its end, so that a write through a link lands where the
// file system would put it.
func realPath(p string) string {
	return resolveDepth(filepath.Clean(p), 0)
}

func resolveDepth(p string, depth int) string {
	if depth > 40 {
		return p
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	fi, err := os.Lstat(p)
	if err == nil && fi.Mode()&os.ModeSymlink != 0 {
		// A dangling link: follow it by hand.
		target, err := os.Readlink(p)
		if err != nil {
			return p
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(resolveDepth(filepath.Dir(p), depth+1), target)
		}
		return resolveDepth(filepath.Clean(target), depth+1)
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) && !errors.Is(err, syscallENOTDIR) {
		return p
	}
	parent := filepath.Dir(p)
	if parent == p {
		return p
	}
	return filepath.Join(resolveDepth(parent, depth), filepath.Base(p))
}

func globBase(g string) (base, rest string) {
	i := strings.IndexAny(g, "*?[{")
	if i < 0 {
		return g, ""
	}
	base = filepath.Dir(g[:i+1])
	rest, _ = filepath.Rel(base, g)
	return base, rest
}

func mustRel(root, p string) string {
	rel, _ := within(root, p)
	return rel
}
