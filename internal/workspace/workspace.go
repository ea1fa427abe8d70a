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

// HookRoot finds the governed root of a hook call. It is anchored, in this
// order, by --root, by the agent's project directory variable, and by the
// event's cwd and the process's working directory; never by a target path,
// since an agent can build a governed root of its own anywhere (with
// permissive settings) and name a file in it. The event's cwd is the
// model's to choose (Codex's workdir), the process's working directory the
// agent's: when both lie in governed roots and the roots differ, the
// process's wins. Targets are resolved against the root found, symlinks
// followed, so a path into the workspace is judged by its rules whatever
// path led there.
func HookRoot(flagRoot, projectDir, cwd, wd string) string {
	for _, anchor := range []string{flagRoot, projectDir} {
		if anchor != "" {
			return Discover([]string{anchor})
		}
	}
	fromCwd, fromWd := Discover([]string{cwd}), Discover([]string{wd})
	if fromCwd == "" || (fromWd != "" && fromWd != fromCwd) {
		return fromWd
	}
	return fromCwd
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
