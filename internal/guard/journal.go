package guard

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/osfile"
)

// The journal names the watched files hook processes wrote and the hash
// each was given (a selection starting an intent, a loop moving one to
// BLOCKED, the catalog cache): such a change during a command is not the
// command's doing. One line per write, "<rel> <sha256>"; only its end is
// read.
const journalName = "journal"

// journalRead is how much of the journal's end Journaled reads; the
// journal is cut back to it when it grows past journalCut.
const (
	journalRead = 16 << 10
	journalCut  = 256 << 10
)

// Journal notes that a hook process wrote content to rel.
func Journal(root, rel string, content []byte) { JournalBy(root, rel, content, "") }

// JournalBy notes that the hook of a tool call wrote content to rel; by
// names the call as "<session>/<tool_use_id>" ("" when there is none). The
// line is "<rel> <sha256>[ <by>]".
func JournalBy(root, rel string, content []byte, by string) {
	JournalFileBy(JournalPath(root), rel, content, by)
}

// JournalFileBy is JournalBy in the journal at path: the repository's,
// under the common git directory, names the writes of the rows that live
// there (the pending asks), whichever work tree made them.
func JournalFileBy(path, rel string, content []byte, by string) {
	line := rel + " " + hashBytes(content)
	if by = strings.Map(noSpace, by); by != "" {
		line += " " + by
	}
	appendJournal(path, line)
}

// JournalFileRemoved is JournalRemoved in the journal at path.
func JournalFileRemoved(path, rel string) { appendJournal(path, rel+" "+RemovedHash) }

// JournaledFile is Journaled in the journal at path.
func JournaledFile(path, rel, hash string) bool {
	return journaledSince(path, rel, hash, 0, "", false)
}

// appendJournal appends line to the journal at path, and cuts it back to
// its newest journalRead bytes when it has grown past journalCut.
func appendJournal(path, line string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	f, err := osfile.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	_, _ = f.WriteString(line + "\n")
	st, err := f.Stat()
	_ = f.Close()
	if err == nil && st.Size() > journalCut {
		if data, err := osfile.ReadFile(path); err == nil && len(data) > journalRead {
			tail := data[len(data)-journalRead:]
			if i := bytes.IndexByte(tail, '\n'); i >= 0 {
				_ = writeAtomic(path, tail[i+1:], 0o644)
			}
		}
	}
}

// By names a tool call in a journal line.
func By(session, toolUseID string) string {
	if session == "" && toolUseID == "" {
		return ""
	}
	return session + "/" + toolUseID
}

func noSpace(r rune) rune {
	if r <= ' ' || r == 0x7f {
		return '_'
	}
	return r
}

// JournalPath is the work tree's journal, under the guard's directory.
func JournalPath(root string) string {
	return filepath.Join(root, filepath.FromSlash(Dir), journalName)
}

// JournalSize is the journal's size now: a snapshot remembers it, and only
// lines written after it excuse a change the command's post finds.
func JournalSize(root string) int64 {
	st, err := os.Stat(JournalPath(root))
	if err != nil {
		return 0
	}
	return st.Size()
}

// Journaled reports whether a hook process gave rel the content hash
// (anywhere in the journal's end).
func Journaled(root, rel, hash string) bool {
	return journaledSince(JournalPath(root), rel, hash, 0, "", false)
}

// JournaledDuring reports whether a hook process gave rel the content hash
// while the command pictured by s ran: a line written after the picture,
// naming no hook of the pictured call itself (its hooks do not run while
// its command does). A line written earlier, by a command that appended it
// for a later one to use, excuses nothing.
func JournaledDuring(root string, s *Snapshot, rel, hash string) bool {
	if s == nil {
		return Journaled(root, rel, hash)
	}
	return journaledSince(JournalPath(root), rel, hash, s.JournalAt, s.Call, false)
}

// HookJournaledDuring is JournaledDuring for a line that names the tool
// call whose hook wrote it: a person's command, which journals without a
// call, excuses nothing.
func HookJournaledDuring(root string, s *Snapshot, rel, hash string) bool {
	if s == nil {
		return false
	}
	return journaledSince(JournalPath(root), rel, hash, s.JournalAt, s.Call, true)
}

func journaledSince(path, rel, hash string, from int64, call string, byHook bool) bool {
	f, err := osfile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return false
	}
	size := st.Size()
	if from > size {
		// Cut back meanwhile: what the picture saw is gone, and with it
		// where the command's lines start; the end is read.
		from = 0
	}
	from = max(from, size-journalRead, 0)
	buf := make([]byte, size-from)
	n, _ := f.ReadAt(buf, from)
	buf = buf[:n]
	if from > 0 {
		// A line the start of the read cut is no line.
		if i := bytes.IndexByte(buf, '\n'); i >= 0 && !atLineStart(f, from) {
			buf = buf[i+1:]
		}
	}
	want := rel + " " + hash
	for len(buf) > 0 {
		line := buf
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			line, buf = buf[:i], buf[i+1:]
		} else {
			break // a line still being written
		}
		rest, ok := strings.CutPrefix(string(line), want)
		if !ok || (rest != "" && rest[0] != ' ') {
			continue
		}
		by := strings.TrimPrefix(rest, " ")
		if call != "" && by != "" && by[strings.LastIndexByte(by, '/')+1:] == call {
			continue
		}
		if byHook && by == "" {
			continue
		}
		return true
	}
	return false
}

// atLineStart reports whether offset at starts a line of f.
func atLineStart(f *os.File, at int64) bool {
	var b [1]byte
	n, _ := f.ReadAt(b[:], at-1)
	return n == 1 && b[0] == '\n'
}

// Undone lists the versions the guard displaced (state/undone/), newest
// first: a person sees what was put back, their own edit made while an
// agent's command ran among them.
func Undone(root string) []string {
	entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(UndoneDir)))
	if err != nil {
		return nil
	}
	var out []string
	for i := len(entries) - 1; i >= 0; i-- {
		if !entries[i].IsDir() {
			out = append(out, UndoneDir+"/"+entries[i].Name())
		}
	}
	return out
}

// Hash is the content hash the guard pictures and journals.
func Hash(content []byte) string { return hashBytes(content) }
