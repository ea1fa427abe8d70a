// Package patch reads the files a patch in the "*** Begin Patch" envelope
// names (the format of Codex's apply_patch, which Copilot CLI, Factory Droid
// and Auggie share): added, updated, deleted, and the two sides of a move.
// It reads the envelope's file lines, and applies one file's section to
// content a caller hands it (Section.Apply: the hook's record of a write
// whose after-event comes before the agent wrote it); it never touches a
// file, and knows nothing of where relative paths are relative to: callers
// resolve them.
package patch

import (
	"errors"
	"strings"
)

// Op is what a patch does to one file.
type Op string

// Operations.
const (
	Add    Op = "add"
	Update Op = "update"
	Delete Op = "delete"
	Move   Op = "move" // the destination of an Update with "*** Move to:"
)

// File is one file a patch names.
type File struct {
	Op   Op
	Path string
}

// ErrNotPatch is returned for text without a "*** Begin Patch" line.
var ErrNotPatch = errors.New("not a patch: no \"*** Begin Patch\" line")

// ErrNoFiles is returned for a patch that names no file.
var ErrNoFiles = errors.New("the patch names no file")

var headers = []struct {
	prefix string
	op     Op
}{
	{"*** Add File:", Add},
	{"*** Update File:", Update},
	{"*** Delete File:", Delete},
	{"*** Move to:", Move},
}

// Files lists the files text names, in order. A move's source is reported
// as its Update and its destination as a Move: both change.
func Files(text string) ([]File, error) {
	begun := false
	var out []File
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if !begun {
			begun = strings.TrimSpace(line) == "*** Begin Patch"
			continue
		}
		if strings.TrimSpace(line) == "*** End Patch" {
			break
		}
		for _, h := range headers {
			if rest, ok := strings.CutPrefix(line, h.prefix); ok {
				if p := strings.TrimSpace(rest); p != "" {
					out = append(out, File{Op: h.op, Path: p})
				}
				break
			}
		}
	}
	switch {
	case !begun:
		return nil, ErrNotPatch
	case len(out) == 0:
		return nil, ErrNoFiles
	}
	return out, nil
}

// Paths lists the paths of Files(text), each once.
func Paths(text string) ([]string, error) {
	files, err := Files(text)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	for _, f := range files {
		if !seen[f.Path] {
			seen[f.Path] = true
			out = append(out, f.Path)
		}
	}
	return out, nil
}
