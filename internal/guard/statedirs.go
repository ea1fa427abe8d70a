package guard

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/osfile"
)

// Two kinds of state directories a hook reads to show a person (the review
// state, the sessions' counters) are watched file by file.
//
// Files: each file of the directory (and of its directories, one level
// down) is pictured whole, as a Whole target is: a change no journal line
// excuses is put back, a file added is taken out, one removed is put back.
// Every writer journals (the hooks, submit, a person's reject), a removal
// as the hash RemovedHash.
//
// Mirrored: a directory of append-only logs that hooks append to on every
// call (the sessions' counters): too often written to copy at each picture,
// each is kept twice, the hooks' appends going first to the copy under the
// guard's directory (MirrorDir) and then to the log. A log that is no
// prefix of its copy was changed by something else, and is put back from
// the copy; one added without a copy is taken out. A directory whose
// writers compact their logs (ReplaceMirror) names the writers' lock
// (Target.Lock): between a compaction's two renames a log is no prefix of
// its copy, so a log that differs from its copy is compared again under
// that lock, where it must be its copy (a log cut short, which is a
// prefix, is then put back too).

// RemovedHash is what a journal line gives as the hash of a file a hook
// removed.
const RemovedHash = "-"

// JournalRemoved notes that a hook process removed rel.
func JournalRemoved(root, rel string) { JournalFileRemoved(JournalPath(root), rel) }

// MirrorDir is where the copies of the logs of the Mirrored directory rel
// (root-relative) are kept, absolute.
func MirrorDir(root, rel string) string {
	return filepath.Join(root, filepath.FromSlash(Dir), "mirror", filepath.Base(filepath.FromSlash(rel)))
}

// AppendMirror appends b to the copy in mirror (a MirrorDir) of the log
// at path, the copy first made from the log as it is (a log an older
// intenthook began has none). A hook appends to the copy before the log.
func AppendMirror(mirror, path string, b []byte) error {
	copyPath := filepath.Join(mirror, filepath.Base(path))
	f, err := osfile.OpenFile(copyPath, os.O_WRONLY|os.O_APPEND, 0o644)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(mirror, 0o755); err != nil {
			return err
		}
		seed, rerr := osfile.ReadFile(path)
		if rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			return rerr
		}
		f, err = osfile.OpenFile(copyPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE|os.O_EXCL, 0o644)
		switch {
		case err == nil:
			b = append(seed, b...)
		case errors.Is(err, fs.ErrExist):
			f, err = osfile.OpenFile(copyPath, os.O_WRONLY|os.O_APPEND, 0o644)
		}
	}
	if err != nil {
		return err
	}
	_, werr := f.Write(b)
	if err := f.Close(); werr == nil {
		werr = err
	}
	return werr
}

// ReplaceMirror replaces the log at path and its copy in mirror (a
// MirrorDir) with b, the log first: the compaction of a log that has grown
// to b, its last line. The caller holds the lock it appends under. Each
// file is written beside its directory, never in it (a temporary file in
// a Mirrored directory or among the copies would be a log without a copy,
// or a copy without a log), and renamed over the old one: a reader of the
// copy reads the old file or the new one, whose last lines are the same.
// A compaction that fails half-way leaves the copy as it was, so the next
// one replaces both again.
func ReplaceMirror(mirror, path string, b []byte) error {
	if err := replaceFrom(filepath.Dir(filepath.Dir(path)), path, b); err != nil {
		return err
	}
	return replaceFrom(filepath.Dir(mirror), filepath.Join(mirror, filepath.Base(path)), b)
}

// replaceFrom writes b to a temporary file in dir and renames it to path.
func replaceFrom(dir, path string, b []byte) error {
	tmp, err := osfile.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), 0o644)); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	if err := osfile.Rename(tmp.Name(), path); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	return nil
}

// dirFiles lists the regular files of the directory rel and of its
// directories one level down, root-relative.
func dirFiles(root, rel string) []string {
	var out []string
	entries, err := os.ReadDir(abs(root, rel))
	if err != nil {
		return nil
	}
	for _, e := range entries {
		sub := rel + "/" + e.Name()
		if !e.IsDir() {
			out = append(out, sub)
			continue
		}
		inner, err := os.ReadDir(abs(root, sub))
		if err != nil {
			continue
		}
		for _, f := range inner {
			if !f.IsDir() {
				out = append(out, sub+"/"+f.Name())
			}
		}
	}
	return out
}

// under reports whether rel lies below the directory dir.
func under(rel, dir string) bool { return strings.HasPrefix(rel, dir+"/") }

// filesAdded lists the files of a Files directory that the picture did not
// hold: each a change from nothing.
func filesAdded(root, dir string, s *Snapshot) []Change {
	var out []Change
	for _, rel := range dirFiles(root, dir) {
		if _, had := s.Files[rel]; had {
			continue
		}
		after, _, _ := look(abs(root, rel), Files)
		out = append(out, Change{Rel: rel, Before: File{Kind: Files}, After: after})
	}
	return out
}

// coarseSlack is how far behind the wall clock a file's change time may
// be: the kernel stamps inodes from a coarse clock, up to a tick behind
// the one a picture reads, so a write just after the picture can carry a
// change time just before it. A log changed that close to the picture is
// read and compared all the same (its content decides; reading it costs
// nothing else).
const coarseSlack = 100 * time.Millisecond

// mirrorChanges lists the logs of the Mirrored directory t.Rel (t.Log
// alone when it names one) that are no prefix of their copies, those added
// without a copy, and those removed while a copy remains. Only logs
// changed since the picture are read.
func mirrorChanges(root string, t Target, s *Snapshot) []Change {
	if s.At == 0 {
		return nil
	}
	dir := t.Rel
	mirror := MirrorDir(root, dir)
	var logs, copies []string
	if t.Log != "" {
		logs, copies = []string{t.Log}, []string{t.Log}
	} else {
		logs, copies = names(abs(root, dir)), names(mirror)
	}
	var out []Change
	present := map[string]bool{}
	for _, name := range logs {
		rel := dir + "/" + name
		st, err := os.Lstat(abs(root, rel))
		if err != nil {
			continue
		}
		present[name] = true
		if osfile.ChangeTime(st) < s.At-int64(coarseSlack) && st.Mode().IsRegular() {
			continue
		}
		after, content, _ := look(abs(root, rel), Mirrored)
		copyOf, err := osfile.ReadFile(filepath.Join(mirror, name))
		held := leads // the hooks' appends: the copy leads the log
		if err == nil && t.Lock != nil && !bytes.Equal(copyOf, content) {
			// A writer at work (an append, a compaction half done), or
			// a change: compared again with no writer at work, when a
			// log is its copy.
			if unlock, lerr := t.Lock(name); lerr == nil {
				after, content, _ = look(abs(root, rel), Mirrored)
				copyOf, err = osfile.ReadFile(filepath.Join(mirror, name))
				unlock()
				held = same
			}
		}
		switch {
		case err != nil && !errors.Is(err, os.ErrNotExist):
			continue
		case err == nil && held(copyOf, content):
			continue
		}
		before := File{Kind: Mirrored}
		if err == nil {
			before.FP, before.Hash = "mirror", hashBytes(copyOf)
		}
		out = append(out, Change{Rel: rel, Before: before, After: after})
	}
	for _, name := range copies {
		if present[name] {
			continue
		}
		copyOf, err := osfile.ReadFile(filepath.Join(mirror, name))
		if err != nil {
			continue
		}
		rel := dir + "/" + name
		out = append(out, Change{Rel: rel, Before: File{Kind: Mirrored, FP: "mirror", Hash: hashBytes(copyOf)}, After: File{Kind: Mirrored}})
	}
	slices.SortFunc(out, func(a, b Change) int { return strings.Compare(a.Rel, b.Rel) })
	return out
}

// leads reports whether a copy holds its log (content, nil when the log
// is not a regular file) and perhaps the hooks' next appends.
func leads(copyOf, content []byte) bool {
	return content != nil && bytes.HasPrefix(copyOf, content)
}

// same reports whether a copy is its log, byte for byte.
func same(copyOf, content []byte) bool {
	return content != nil && bytes.Equal(copyOf, content)
}

// names lists the names of the entries of dir that are not directories.
func names(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if !e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

// undoMirrored puts a log back from its copy (the changed version moves to
// state/undone/); a log without a copy is taken out.
func undoMirrored(root string, c Change, kept string) (bool, string, bool, error) {
	if c.Before.FP == "" {
		return true, kept, false, nil
	}
	content, err := osfile.ReadFile(filepath.Join(MirrorDir(root, filepath.ToSlash(filepath.Dir(filepath.FromSlash(c.Rel)))), filepath.Base(filepath.FromSlash(c.Rel))))
	if err != nil {
		return false, kept, false, err
	}
	if hashBytes(content) != c.Before.Hash {
		return false, kept, false, errors.New(c.Rel + ": its copy changed meanwhile")
	}
	path := abs(root, c.Rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return false, kept, false, err
	}
	return true, kept, false, writeAtomic(path, content, 0o644)
}
