package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/state"
)

// GovernedMarker is the file, under a work tree's own git directory (the
// repository's .git, or .git/worktrees/<name> for a linked work tree),
// that says which directories of that work tree init made governed roots:
// one root a line, relative to the work tree's top ("." for the top
// itself). It lives outside .orchestration/ on purpose: a program that
// moves the whole directory away (the shell parser denies mv and its
// kin, a program the parser cannot read is not stopped) takes the
// catalog, the guard's picture and the state with it, and without this
// file the work tree would read as never governed. Only the hooks' slow
// path reads it: when no catalog is found.
const GovernedMarker = "intenthook/governed"

// MarkerPath returns the marker of the repository holding dir, under its
// common git directory (one for all its work trees: a work tree git
// worktree add makes is governed from its first hook call), and the root
// relative to the work tree's top, as a line of the marker; ok is false
// outside a git work tree.
func MarkerPath(dir string) (path, line string, ok bool) {
	top, _, ok := git.Top(dir)
	if !ok {
		return "", "", false
	}
	common, ok := git.CommonDir(top)
	if !ok {
		return "", "", false
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", false
	}
	rel, err := filepath.Rel(top, abs)
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return "", "", false
	}
	return filepath.Join(common, filepath.FromSlash(GovernedMarker)), filepath.ToSlash(rel), true
}

// ownMarker is where an older version kept a linked work tree's marker:
// under the work tree's own git directory ("" when that is the common
// one). It is still read, and uninstall takes a root out of it too.
func ownMarker(gitDir, marker string) string {
	own := filepath.Join(gitDir, filepath.FromSlash(GovernedMarker))
	if own == marker {
		return ""
	}
	return own
}

// markerLines reads the marker's roots; a missing marker holds none.
func markerLines(path string) ([]string, error) {
	data, err := osfile.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out, nil
}

// Mark records root as a governed root of its work tree (init). It
// reports the marker's path and whether the line was new; outside a git
// work tree there is no marker, and path is "".
func Mark(root string) (path string, added bool, err error) {
	path, line, ok := MarkerPath(root)
	if !ok {
		return "", false, nil
	}
	lines, err := markerLines(path)
	if err != nil {
		return path, false, err
	}
	if slices.Contains(lines, line) {
		return path, false, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return path, false, err
	}
	return path, true, writeMarker(path, append(lines, line))
}

// Unmark takes root out of its work tree's marker (uninstall), removing
// the file when no root is left. It reports the marker's path ("" outside
// a git work tree) and whether root was in it.
func Unmark(root string) (path string, removed bool, err error) {
	path, line, ok := MarkerPath(root)
	if !ok {
		return "", false, nil
	}
	if _, gitDir, ok := git.Top(root); ok {
		if own := ownMarker(gitDir, path); own != "" {
			if _, ownRemoved, err := unmarkAt(own, line); err != nil {
				return own, false, err
			} else if ownRemoved {
				removed = true
			}
		}
	}
	_, common, err := unmarkAt(path, line)
	return path, removed || common, err
}

// unmarkAt takes line out of the marker at path, removing the file when
// no line is left.
func unmarkAt(path, line string) (string, bool, error) {
	lines, err := markerLines(path)
	if err != nil || !slices.Contains(lines, line) {
		return path, false, err
	}
	lines = slices.DeleteFunc(lines, func(l string) bool { return l == line })
	if len(lines) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return path, false, err
		}
		_ = os.Remove(filepath.Dir(path)) // only when empty
		return path, true, nil
	}
	return path, true, writeMarker(path, lines)
}

func writeMarker(path string, lines []string) error {
	text := "# intenthook init made these roots of this work tree governed; `intenthook uninstall` takes one out\n" + strings.Join(lines, "\n") + "\n"
	return state.WriteFile(path, []byte(text), 0o644, true)
}

// Marked returns the governed root recorded in the marker of dir's work
// tree that holds dir (the nearest one), or "". It does not ask whether
// the root still holds its catalog.
func Marked(dir string) string {
	if dir == "" {
		return ""
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	top, gitDir, ok := git.Top(abs)
	if !ok {
		return ""
	}
	marker, _, ok := MarkerPath(top)
	if !ok {
		return ""
	}
	lines, err := markerLines(marker)
	if own := ownMarker(gitDir, marker); own != "" {
		older, _ := markerLines(own)
		lines = append(lines, older...)
	}
	if err != nil || len(lines) == 0 {
		return ""
	}
	best := ""
	for _, l := range lines {
		if !filepath.IsLocal(filepath.FromSlash(l)) && l != "." {
			continue // a line that leaves the work tree names no root of it
		}
		root := filepath.Join(top, filepath.FromSlash(l))
		if (abs == root || strings.HasPrefix(abs, root+string(filepath.Separator))) && len(root) > len(best) {
			best = root
		}
	}
	return best
}

// Missing returns the governed root whose rules are gone: the root the
// marker of the first anchor's work tree records around it, when that
// root holds no catalog; "" otherwise. The anchors are a hook call's, in
// HookRoot's order (an explicit --root or the agent's project directory
// alone, else the event's cwd and the process's working directory). It is
// asked only when no governed root was found, so a governed call never
// pays for it.
func Missing(flagRoot, projectDir, cwd, wd string) string {
	anchors := []string{cwd, wd}
	if flagRoot != "" {
		anchors = []string{flagRoot}
	} else if projectDir != "" {
		anchors = []string{projectDir}
	}
	for _, a := range anchors {
		if root := Marked(a); root != "" && !IsRoot(root) {
			return root
		}
	}
	return ""
}
