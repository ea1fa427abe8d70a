// Package workspace finds the governed root of a call and turns the paths an
// agent names into root-relative ones: symlinks resolved, temp directories
// told apart, governance files protected, .intentignore applied. It reads the
// file system but never writes it.
package workspace

import (
	"os"
	"path/filepath"
)

// Marker is the file whose presence makes a directory a governed root.
const Marker = ".orchestration/active_intents.yaml"

// FindRoot walks up from dir to the nearest governed root, or "".
func FindRoot(dir string) string {
	if dir == "" {
		return ""
	}
	dir = filepath.Clean(dir)
	for {
		if IsRoot(dir) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// IsRoot reports whether dir itself is a governed root.
func IsRoot(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(Marker)))
	return err == nil && st.Mode().IsRegular()
}

// Candidates lists the places a hook call's root is looked for, in order:
// --root, each target path (so a `cd /tmp` does not switch governance off for
// a write into the project), the event cwd, $CLAUDE_PROJECT_DIR and the
// process's working directory. Relative targets are taken against cwd.
func Candidates(flagRoot string, targets []string, cwd, projectDir, wd string) []string {
	var out []string
	if flagRoot != "" {
		out = append(out, flagRoot)
	}
	base := cwd
	if base == "" {
		base = wd
	}
	for _, t := range targets {
		if !filepath.IsAbs(t) {
			if base == "" {
				continue
			}
			t = filepath.Join(base, t)
		}
		out = append(out, filepath.Dir(filepath.Clean(t)))
	}
	return append(out, cwd, projectDir, wd)
}

// Discover returns the governed root of the first candidate that has one,
// or "" when the call is ungoverned.
func Discover(candidates []string) string {
	for _, c := range candidates {
		if c == "" {
			continue
		}
		abs, err := filepath.Abs(c)
		if err != nil {
			continue
		}
		if root := FindRoot(abs); root != "" {
			return root
		}
	}
	return ""
}
