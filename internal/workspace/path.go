package workspace

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/glob"
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
		// Not filepath.Join, which would clean ".." before links are seen.
		abs = base + string(filepath.Separator) + abs
	}
	lexical := filepath.Clean(abs)
	res.Abs = realPath(abs)
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
		if ok, _ := glob.Match(g, filepath.ToSlash(res.Abs)); ok {
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

// realPath resolves p the way the kernel would: component by component,
// following each symbolic link before applying a later "..", so that
// "link/../x" lands beside the link's target, not beside the link. Past the
// first missing component nothing can be a link, and the rest is lexical.
func realPath(p string) string {
	return resolveDepth(p, 0)
}

func resolveDepth(p string, depth int) string {
	if depth > 40 || !filepath.IsAbs(p) {
		return filepath.Clean(p) // a link loop: the write would fail anyway
	}
	vol := filepath.VolumeName(p)
	cur := vol + string(filepath.Separator)
	missing := false
	for _, part := range strings.Split(p[len(vol):], string(filepath.Separator)) {
		switch part {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, part)
		if missing {
			cur = next
			continue
		}
		fi, err := os.Lstat(next)
		switch {
		case err != nil:
			missing = true
			cur = next
		case fi.Mode()&os.ModeSymlink != 0:
			target, err := os.Readlink(next)
			if err != nil {
				cur = next
				continue
			}
			if !filepath.IsAbs(target) {
				// Not filepath.Join: it would clean "target/.." lexically.
				target = cur + string(filepath.Separator) + target
			}
			cur = resolveDepth(target, depth+1)
		default:
			cur = next
		}
	}
	return cur
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
