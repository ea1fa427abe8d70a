package guard

import (
	"bytes"
	"os"
	"path/filepath"

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
func Journal(root, rel string, content []byte) {
	path := filepath.Join(root, filepath.FromSlash(Dir), journalName)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	f, err := osfile.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	_, _ = f.WriteString(rel + " " + hashBytes(content) + "\n")
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

// Journaled reports whether a hook process gave rel the content hash.
func Journaled(root, rel, hash string) bool {
	f, err := osfile.Open(filepath.Join(root, filepath.FromSlash(Dir), journalName))
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return false
	}
	from := max(st.Size()-journalRead, 0)
	buf := make([]byte, st.Size()-from)
	n, _ := f.ReadAt(buf, from)
	return bytes.Contains(buf[:n], []byte("\n"+rel+" "+hash+"\n")) || bytes.HasPrefix(buf[:n], []byte(rel+" "+hash+"\n"))
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
