package guard

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/intenthook/intenthook/internal/osfile"
)

// A folder an agent loads code from into its own process (Claude Code's
// dev-mods, in the user's home) is watched as a tree, and only around a
// command that could write there (the gate decides which): every file at
// any depth is pictured whole; a file the command added is taken out (a
// planted mod), one it changed is put back, and nothing excuses either (no
// hook writes there, and no commit brings a file there). A file removed is
// not put back: the agent itself clears old sessions' folders, and a mod
// taken away runs no code. Directories are not judged: the agent makes its
// session's folder itself, and an empty folder loads nothing.

// maxModsFiles bounds the files pictured per folder: a person's mod with
// its own packages could hold thousands. Past it, a file not pictured
// counts as added only when its change time is after the picture.
const maxModsFiles = 1000

// ModsMark is one watched folder as pictured: Full says every file under it
// was.
type ModsMark struct {
	Dir  string `json:"dir"`
	Full bool   `json:"full,omitempty"`
}

// modsFiles lists the files (and links: a link is not followed, and counts
// as a file) under dir at any depth, in lexical order, at most most of
// them; full is false when there were more. A dir that is itself a link is
// listed as one file.
func modsFiles(dir string, most int) (files []string, full bool) {
	full = true
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if len(files) == most {
			full = false
			return filepath.SkipAll
		}
		files = append(files, p)
		return nil
	})
	return files, full
}

// modsChanges lists, for each folder s pictured, the files added and
// changed since (the check function compares a pictured one).
func modsChanges(s *Snapshot, check func(rel string, kind Kind)) []Change {
	var out []Change
	for _, m := range s.Mods {
		files, _ := modsFiles(m.Dir, -1)
		for _, p := range files {
			if _, had := s.Files[p]; had {
				check(p, Mods)
				continue
			}
			if !m.Full && !changedSince(p, s.At) {
				continue
			}
			after, _, _ := look(p, Mods)
			out = append(out, Change{Rel: p, Before: File{Kind: Mods}, After: after})
		}
	}
	return out
}

// changedSince reports whether the inode at p changed after the moment at
// (Unix nanoseconds), within the kernel clock's coarseness.
func changedSince(p string, at int64) bool {
	st, err := os.Lstat(p)
	return err == nil && osfile.ChangeTime(st) >= at-int64(coarseSlack)
}

// IsMods reports whether a change is to a watched mods folder.
func (c Change) IsMods() bool { return c.Before.Kind == Mods }
