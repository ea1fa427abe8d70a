package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/lessons"
)

// Protected matches root-relative paths against the protected globs.
type Protected struct {
	governance bool           // the built-in governance files are protected
	table      governed.Table // their rows (the Protected ones count)
	extra      []string       // the configuration's protected_paths
	fold       bool
}

// NewProtected combines the protected files of t, the governance table
// (when governance is on, SPEC §11), with extra globs from config. Bad
// extra globs are reported, the rest still apply.
func NewProtected(t governed.Table, governance bool, extra []string) (*Protected, error) {
	p := &Protected{fold: runtime.GOOS == "darwin" || runtime.GOOS == "windows", governance: governance}
	if governance {
		p.table = t
	}
	var errs []error
	for _, g := range extra {
		if _, err := intents.MatchGlob(g, ""); err != nil {
			errs = append(errs, fmt.Errorf("protected_paths %q: %w", g, err))
			continue
		}
		p.extra = append(p.extra, g)
	}
	return p, errors.Join(errs...)
}

// patterns yields the protected globs: the table's Protected rows, in its
// order (a path in two rows comes twice), then the configuration's. They
// are read where they lie: a hook checks its paths against them once or
// twice, which costs less than collecting them.
func (p *Protected) patterns(yield func(string) bool) {
	for _, f := range p.table {
		if f.Use&governed.Protected != 0 && !yield(f.Path) {
			return
		}
	}
	for _, g := range p.extra {
		if !yield(g) {
			return
		}
	}
}

// Match returns the protected glob covering rel, if any.
func (p *Protected) Match(rel string) (string, bool) {
	if p.governance && (rel == ".git" || strings.HasSuffix(rel, "/.git")) {
		// A .git file (a worktree's or submodule's gitdir link) is git's too.
		return ".git", true
	}
	for g := range p.patterns {
		pat, path := g, rel
		if p.fold {
			pat, path = strings.ToLower(g), strings.ToLower(rel)
		}
		if matchPattern(pat, path) {
			return g, true
		}
	}
	return "", false
}

// Alias reports whether the existing file at abs is another name (a hard
// link) of a literal governance file under root, and which. A hard link
// would make a protected file writable under a name no glob covers.
func (p *Protected) Alias(root, abs string) (string, bool) {
	fi, err := os.Lstat(abs)
	if err != nil || !fi.Mode().IsRegular() || !hardLinked(fi) {
		return "", false
	}
	for g := range p.patterns {
		if hasMeta(g) {
			continue
		}
		if gi, err := os.Stat(filepath.Join(root, filepath.FromSlash(g))); err == nil && os.SameFile(fi, gi) {
			return g, true
		}
	}
	return "", false
}

// HardLinked reports whether the regular file at abs is known to have more
// than one name.
func HardLinked(abs string) bool {
	fi, err := os.Lstat(abs)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	n, known := linkCount(fi)
	return known && n > 1
}

// hardLinked reports whether a file may have another name: where the count
// is not known, every existing file is compared.
func hardLinked(fi os.FileInfo) bool {
	n, known := linkCount(fi)
	return !known || n > 1
}

// Sidecar reports whether rel is one of the governance files intenthook and
// people keep under .orchestration/: the sidecars of t, the governance
// table, the default lessons file's place taken by lessonsFile, the
// configured one ("" for the default). Other files there are ordinary
// files: an agent's script under .orchestration/ needs an intent like any
// other.
func Sidecar(t governed.Table, rel, lessonsFile string) bool {
	if lessonsFile == "" {
		lessonsFile = lessons.DefaultFile
	}
	if rel == lessonsFile {
		return true
	}
	return rel != lessons.DefaultFile && t.Sidecar(rel)
}

// Nested reports whether rel is, or lies in, a governance directory below
// the root: a .orchestration/ of its own would make that subtree a
// workspace that governs itself.
func Nested(rel string) bool {
	return strings.Contains(rel, "/.orchestration/") || strings.HasSuffix(rel, "/.orchestration")
}

// Within reports whether the directory rel (root-relative; "" or "." for
// the root) holds a protected path: a literal protected path below it, or,
// on disk under abs, a .git or .orchestration entry (nested repositories
// and workspaces). A hard-link copy of such a directory (cp -al) would give
// every file in it a second, unprotected name. The walk stops after
// maxWithin entries and then answers true: a directory that large is not
// linked wholesale by accident.
func (p *Protected) Within(rel, abs string) bool {
	if rel == "" || rel == "." {
		return true
	}
	for g := range p.patterns {
		lit := g
		if i := strings.IndexAny(g, `*?[]{}\`); i >= 0 {
			lit = strings.TrimSuffix(g[:i], "/")
		}
		if lit != "" && strings.HasPrefix(lit, rel+"/") {
			return true
		}
	}
	if !p.governance {
		return false
	}
	seen := 0
	found := errors.New("found")
	err := filepath.WalkDir(abs, func(_ string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if seen++; seen > maxWithin {
			return found
		}
		if n := d.Name(); n == ".git" || n == ".orchestration" {
			return found
		}
		return nil
	})
	return errors.Is(err, found)
}

// Holds reports whether the directory rel (root-relative, not the root
// itself) is or holds a protected path by the globs alone: a protected
// glob or literal path lies below it (.orchestration holds
// .orchestration/active_intents.yaml, .claude holds .claude/settings.json,
// .git holds .git/**). Moving, renaming or replacing such a directory takes
// the files along whatever the scope. No file is read.
func (p *Protected) Holds(rel string) bool {
	if rel == "" || rel == "." {
		return false
	}
	if p.fold {
		rel = strings.ToLower(rel)
	}
	for g := range p.patterns {
		lit := g
		if i := strings.IndexAny(g, `*?[]{}\`); i >= 0 {
			lit = g[:i]
		}
		lit = strings.TrimSuffix(lit, "/")
		if p.fold {
			lit = strings.ToLower(lit)
		}
		if lit != "" && (lit == rel || strings.HasPrefix(lit, rel+"/")) {
			return true
		}
	}
	return false
}

// maxWithin bounds Within's walk.
const maxWithin = 5000

// matchPattern matches rel against a protected glob. The shapes protected
// paths take (a file, "dir/**", "**/dir/**") are matched with string
// operations: a hook checks every write against them, and compiling globs
// would cost more than the rest of the check.
func matchPattern(pat, rel string) bool {
	if !hasMeta(pat) {
		return pat == rel
	}
	if dir, ok := strings.CutSuffix(pat, "/**"); ok && !hasMeta(dir) {
		return rel == dir || strings.HasPrefix(rel, dir+"/")
	}
	if inner, ok := strings.CutPrefix(pat, "**/"); ok {
		if dir, ok := strings.CutSuffix(inner, "/**"); ok && !hasMeta(dir) {
			// "p/**" covers what p matches: the directory itself too.
			return rel == dir || strings.HasSuffix(rel, "/"+dir) || strings.HasPrefix(rel, dir+"/") || strings.Contains(rel, "/"+dir+"/")
		}
	}
	ok, _ := intents.MatchGlob(pat, rel)
	return ok
}

func hasMeta(s string) bool { return strings.ContainsAny(s, `*?[]{}\`) }
