package guard

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/osfile"
)

// SegmentMark is a segment's picture: its fingerprint, and for the segment
// hooks may be appending to (the branch's active one), its size and the
// hash of the bytes before its end. Sealed segments are never read.
type SegmentMark struct {
	FP   string `json:"fp"`
	Size int64  `json:"size,omitempty"`
	Tail string `json:"tail,omitempty"`
}

// SegmentChange is a segment a command added, removed or changed.
type SegmentChange struct {
	Rel  string
	What string // "added", "removed", "changed"
}

// TakeSegments pictures every file under dir (root-relative: the ledger's
// segment directory) by its fingerprint (one directory walk and a stat
// each), reading only the tail of active, the segment hooks append to.
func TakeSegments(root, dir, active string) map[string]SegmentMark {
	out := map[string]SegmentMark{}
	for _, rel := range listSegmentFiles(root, dir) {
		path := filepath.Join(root, filepath.FromSlash(rel))
		st, err := os.Lstat(path)
		if err != nil {
			continue
		}
		m := SegmentMark{FP: fingerprint(path, st)}
		if rel == active {
			m.Size, m.Tail = tailMark(root, rel, -1)
		}
		out[rel] = m
	}
	return out
}

// listSegmentFiles lists every file under the segment directory, segment
// or not (a file that is not one is a change too).
func listSegmentFiles(root, dir string) []string {
	var out []string
	base := filepath.Join(root, filepath.FromSlash(dir))
	_ = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	return out
}

// CompareSegments returns the files under dir a command added, removed or
// changed since s. The active segment may have grown (hooks append during
// the command): only its bytes before the old end count. rollover says
// whether a new file is a hook's (the writer's next segment).
func CompareSegments(root, dir string, s *Snapshot, rollover func(rel string) bool) []SegmentChange {
	var out []SegmentChange
	now := map[string]bool{}
	for _, rel := range listSegmentFiles(root, dir) {
		now[rel] = true
		before, had := s.Segments[rel]
		if !had {
			if rollover(rel) {
				continue
			}
			out = append(out, SegmentChange{rel, "added"})
			continue
		}
		path := filepath.Join(root, filepath.FromSlash(rel))
		st, err := os.Lstat(path)
		if err != nil {
			continue
		}
		if fingerprint(path, st) == before.FP {
			continue
		}
		if before.Tail != "" {
			if _, tail := tailMark(root, rel, before.Size); tail == before.Tail {
				continue // appended to
			}
		}
		out = append(out, SegmentChange{rel, "changed"})
	}
	for rel := range s.Segments {
		if !now[rel] {
			out = append(out, SegmentChange{rel, "removed"})
		}
	}
	slices.SortFunc(out, func(a, b SegmentChange) int { return strings.Compare(a.Rel, b.Rel) })
	return out
}

// tailMark returns the size of the ledger file rel (the legacy file or a
// segment) and the hash of the tailLen bytes before size (size < 0: its
// current end); "short" when the file is shorter than size now.
func tailMark(root, rel string, size int64) (int64, string) {
	f, err := osfile.Open(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return 0, ""
	}
	defer f.Close()
	if size < 0 {
		st, err := f.Stat()
		if err != nil {
			return 0, ""
		}
		size = st.Size()
	}
	from := max(size-tailLen, 0)
	buf := make([]byte, size-from)
	n, _ := f.ReadAt(buf, from)
	if int64(n) != size-from {
		return size, "short"
	}
	return size, hashBytes(buf)
}

// UndoSegment moves a segment the command added to state/undone/ (named
// as undo names displaced files) and returns where; a removed or changed
// segment is put back from restore (its committed content, nil when there
// is none, then it is only reported).
func UndoSegment(root string, c SegmentChange, committed []byte, stamp string) (kept string, err error) {
	path := filepath.Join(root, filepath.FromSlash(c.Rel))
	switch c.What {
	case "added":
		name := stamp + "-" + strings.ReplaceAll(c.Rel, "/", "_")
		dst := filepath.Join(root, filepath.FromSlash(UndoneDir), name)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return "", err
		}
		if err := os.Rename(path, dst); err != nil {
			return "", err
		}
		return UndoneDir + "/" + name, nil
	default:
		if committed == nil {
			return "", errNoCopy(c.Rel)
		}
		if c.What == "changed" {
			name := stamp + "-" + strings.ReplaceAll(c.Rel, "/", "_")
			dst := filepath.Join(root, filepath.FromSlash(UndoneDir), name)
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err == nil && os.Rename(path, dst) == nil {
				kept = UndoneDir + "/" + name
			}
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return kept, err
		}
		return kept, writeAtomic(path, committed, 0o644)
	}
}

type errNoCopy string

func (e errNoCopy) Error() string {
	return string(e) + ": not committed, and segments are not copied: restore it from a backup"
}
