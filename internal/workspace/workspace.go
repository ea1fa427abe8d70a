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
func FindRoot(dir string) string { return findRoot(dir, IsRoot) }

func findRoot(dir string, is func(string) bool) string {
	if dir == "" {
		return ""
	}
	dir = filepath.Clean(dir)
	for {
		if is(dir) {
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
// permissive settings) and name a file in it (only when none of them finds
// a root does a write's target name one: TargetRoot). The event's cwd is the
// model's to choose (Codex's workdir), the process's working directory the
// agent's: when both lie in governed roots and the roots differ, the
// process's wins. Targets are resolved against the root found, symlinks
// followed, so a path into the workspace is judged by its rules whatever
// path led there.
func HookRoot(flagRoot, projectDir, cwd, wd string) string {
	return hookRoot(flagRoot, projectDir, cwd, wd, IsRoot)
}

// TargetRoot is the governed root that holds the first of paths that lies
// in one (a relative path resolved against base), the nearest above it. A
// hook asks it only when HookRoot found no root and neither --root nor a
// project directory variable was given: a session whose cwd moved out of
// the governed tree, with nothing else to anchor it, must not write into
// the tree unjudged. It never overrides a root an
// anchor found, so the root of its own an agent can build anywhere gains
// it nothing it would not have with no root at all.
func TargetRoot(paths []string, base string) string {
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			if base == "" {
				continue
			}
			p = filepath.Join(base, p)
		}
		if root := findRoot(filepath.Dir(p), IsRoot); root != "" {
			return root
		}
	}
	return ""
}

// StateRoot is HookRoot for a workspace whose catalog may be gone: the
// directory that holds .orchestration/state/, found from the same anchors
// in the same order. A hook's post uses it when no governed root is found,
// to find the picture its pre took before a command took the catalog away.
func StateRoot(flagRoot, projectDir, cwd, wd string) string {
	return hookRoot(flagRoot, projectDir, cwd, wd, func(dir string) bool {
		st, err := os.Stat(filepath.Join(dir, ".orchestration", "state"))
		return err == nil && st.IsDir()
	})
}

func hookRoot(flagRoot, projectDir, cwd, wd string, is func(string) bool) string {
	for _, anchor := range []string{flagRoot, projectDir} {
		if anchor != "" {
			return discover([]string{anchor}, is)
		}
	}
	fromCwd, fromWd := discover([]string{cwd}, is), discover([]string{wd}, is)
	if fromCwd == "" || (fromWd != "" && fromWd != fromCwd) {
		return fromWd
	}
	return fromCwd
}

// Discover returns the governed root of the first candidate that has one,
// or "" when the call is ungoverned.
func Discover(candidates []string) string { return discover(candidates, IsRoot) }

func discover(candidates []string, is func(string) bool) string {
	for _, c := range candidates {
		if c == "" {
			continue
		}
		abs, err := filepath.Abs(c)
		if err != nil {
			continue
		}
		if root := findRoot(abs, is); root != "" {
			return root
		}
	}
	return ""
}
