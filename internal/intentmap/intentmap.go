// Package intentmap keeps .orchestration/intent_map.md, the human-readable map
// from each intent to the files written for it and to its evolution log
// (SPEC §7.4). People own and edit that file: the package adds and removes only
// its own lines (a file bullet, an evolution line, a missing heading) and keeps
// every other byte. It does not classify changes or read the catalog; the hook
// tells it what happened.
package intentmap

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/intenthook/intenthook/internal/markdown"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/state"
)

// File is the map's path, relative to the workspace root.
const File = ".orchestration/intent_map.md"

// DefaultLockTimeout is how long Apply waits for the map lock when given no
// timeout (config lock_timeout).
const DefaultLockTimeout = 2 * time.Second

// title heads a map Apply creates.
const title = "# Intent-Code Spatial Map"

// Kind is what happened to a file.
type Kind int

const (
	// Added: the file was written; it is listed under its intent's Files.
	Added Kind = iota + 1
	// Removed: the file was deleted; it leaves its intent's Files.
	Removed
	// Evolved: a Write replaced an existing file (INTENT_EVOLUTION); it is
	// listed under Files and gets a line in the Evolution Log.
	Evolved
)

// Change is one file change to record in the map.
type Change struct {
	IntentID   string
	IntentName string // heading text for a section Apply creates; an existing heading is kept
	Path       string // workspace-relative, slash-separated
	Kind       Kind
	Class      string    // mutation class ending an evolution line; empty: INTENT_EVOLUTION
	Time       time.Time // date of an evolution line, in UTC
}

// Apply records changes in the map under one lock, with one read and at most
// one atomic, durable rewrite; a map the changes leave as it was is not
// rewritten. A timeout of zero means DefaultLockTimeout.
func Apply(ctx context.Context, root string, timeout time.Duration, changes ...Change) error {
	if len(changes) == 0 {
		return nil
	}
	for _, c := range changes {
		if c.Path == "" {
			return fmt.Errorf("intent map: change without a path for %q", c.IntentID)
		}
		// The ID heads a section and finds it again: one plain word (the
		// catalog's IDs are), or a section would be appended on every call.
		if c.IntentID == "" || strings.ContainsFunc(c.IntentID, func(r rune) bool {
			return unicode.IsSpace(r) || unicode.IsControl(r) || strings.ContainsRune("#:`", r)
		}) {
			return fmt.Errorf("intent map: intent id %q cannot head a section", c.IntentID)
		}
		if c.Kind < Added || c.Kind > Evolved {
			return fmt.Errorf("intent map: change of unknown kind %d for %s", c.Kind, c.Path)
		}
	}
	if timeout <= 0 {
		timeout = DefaultLockTimeout
	}
	unlock, err := state.Lock(ctx, root, state.LockMap, timeout)
	if err != nil {
		return fmt.Errorf("intent map: %w", err)
	}
	defer unlock()

	path := filepath.Join(root, filepath.FromSlash(File))
	old, perm, err := read(path)
	if err != nil {
		return err
	}
	src := old
	if strings.TrimSpace(src) == "" {
		src = title + "\n" // a missing or empty map starts with its heading
	}
	d := &doc{markdown.Parse(src)}
	for _, c := range changes {
		switch c.Kind {
		case Added:
			d.addFile(c)
		case Removed:
			d.removeFile(c)
		case Evolved:
			d.addFile(c)
			d.addEvolution(c)
		}
	}
	out := d.String()
	if out == src {
		return nil // nothing changed: no write, the file keeps its time
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("intent map: %w", err)
	}
	if err := state.WriteFile(path, []byte(out), perm, true); err != nil {
		return fmt.Errorf("intent map: %w", err)
	}
	return nil
}

// Files returns the paths listed in the intent's section, in file order,
// as written there: first those under its Files (the ones intenthook keeps),
// then those a person lists in subsections of their own ("Core Components",
// "Planned Structure", …), each path once. The Evolution Log is history, not
// a list of files, and is left out. Every section of the intent is read: a
// union merge of two branches that each added it leaves two. A missing map
// or section gives none.
func Files(root, intentID string) ([]string, error) {
	path := filepath.Join(root, filepath.FromSlash(File))
	data, _, err := read(path)
	if err != nil || data == "" {
		return nil, err
	}
	d := &doc{markdown.Parse(data)}
	var files, theirs []string
	seen := map[string]bool{}
	for _, s := range d.sections(intentID) {
		d.listed(s, seen, &files, &theirs)
	}
	return append(files, theirs...), nil
}

// listed adds the files section s lists, each not seen before, to files
// (under Files) or theirs (under a person's subsection).
func (d *doc) listed(s int, seen map[string]bool, files, theirs *[]string) {
	var into *[]string // the list of the subsection at hand; nil: none
	for i, e := s+1, d.End(s); i < e; i++ {
		if level, title := d.Heading(i); level >= 3 {
			if level == 3 {
				switch {
				case is("Files")(title):
					into = files
				case is("Evolution Log")(title):
					into = nil
				default:
					into = theirs
				}
			}
			continue
		}
		if p, ok := d.entry(i); ok && into != nil && !seen[p] {
			seen[p] = true
			*into = append(*into, p)
		}
	}
}

// read returns the map's text and mode; a missing map is empty.
func read(path string) (string, fs.FileMode, error) {
	data, err := osfile.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", 0o644, nil
	}
	if err != nil {
		return "", 0, fmt.Errorf("intent map: %w", err)
	}
	perm := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm() // a person may have chosen it
	}
	return string(data), perm, nil
}

// is matches a heading title, ignoring case as people type it.
func is(name string) func(string) bool {
	return func(title string) bool { return strings.EqualFold(title, name) }
}

// section returns the line of the intent's "## <ID>: <name>" heading, or -1.
// It matches on the ID alone: the intent may have been renamed since.
func (d *doc) section(id string) int {
	return d.Find(0, len(d.Lines), 2, func(title string) bool {
		return title == id || strings.HasPrefix(title, id+":")
	})
}

// sections returns the line of every "## <ID>…" heading of the intent, in
// file order.
func (d *doc) sections(id string) []int {
	var out []int
	for from := 0; from < len(d.Lines); {
		s := d.Find(from, len(d.Lines), 2, func(title string) bool {
			return title == id || strings.HasPrefix(title, id+":")
		})
		if s < 0 {
			break
		}
		out = append(out, s)
		from = s + 1
	}
	return out
}

// entry returns the path of a file bullet ("- `path`", maybe followed by a
// person's note) at line i.
func (d *doc) entry(i int) (string, bool) {
	if d.Code[i] || !markdown.ListItem(d.Lines[i]) {
		return "", false
	}
	rest := strings.TrimLeft(markdown.Text(d.Lines[i]), " \t")
	rest = strings.TrimLeft(rest[2:], " ")
	if !strings.HasPrefix(rest, "`") {
		return "", false
	}
	p, _, ok := strings.Cut(rest[1:], "`")
	return p, ok && p != ""
}

// ensureSection returns the intent's section, appending it to the map when missing.
func (d *doc) ensureSection(c Change) int {
	if s := d.section(c.IntentID); s >= 0 {
		return s
	}
	h := "## " + c.IntentID
	if name := strings.TrimSpace(markdown.OneLine(c.IntentName, 0)); name != "" {
		h += ": " + name
	}
	d.AppendTo(0, len(d.Lines), h)
	return d.section(c.IntentID)
}

func (d *doc) addFile(c Change) {
	p := markdown.QuotePath(c.Path)
	entry := "- `" + p + "`"
	for _, s := range d.sections(c.IntentID) {
		if f := d.Find(s+1, d.End(s), 3, is("Files")); f >= 0 && d.lists(f, p) {
			return // listed in another of its sections
		}
	}
	s := d.ensureSection(c)
	e := d.End(s)
	f := d.Find(s+1, e, 3, is("Files"))
	if f < 0 {
		// Files comes first in a section, before the evolution log.
		if ev := d.Find(s+1, e, 3, is("Evolution Log")); ev >= 0 {
			block := []string{"### Files", "", entry, ""}
			if !markdown.Blank(d.Lines[ev-1]) {
				block = append([]string{""}, block...)
			}
			d.Insert(ev, block...)
		} else {
			d.AppendTo(s, e, "### Files", "", entry)
		}
		return
	}
	d.AppendTo(f, d.End(f), entry)
}

// lists reports whether the subsection at line f has a bullet for p.
func (d *doc) lists(f int, p string) bool {
	for i, fe := f+1, d.End(f); i < fe; i++ {
		if got, ok := d.entry(i); ok && got == p {
			return true
		}
	}
	return false
}

// removeFile takes the path out of its intent's Files, in every section of
// the intent (every bullet naming it, should a person have listed it
// twice). The evolution log is history and keeps its lines.
func (d *doc) removeFile(c Change) {
	p := markdown.QuotePath(c.Path)
	ss := d.sections(c.IntentID)
	for k := len(ss) - 1; k >= 0; k-- { // the last first: a removal moves what follows
		s := ss[k]
		f := d.Find(s+1, d.End(s), 3, is("Files"))
		if f < 0 {
			continue
		}
		for i := f + 1; i < d.End(f); {
			if got, ok := d.entry(i); ok && got == p {
				d.Remove(i)
				continue
			}
			i++
		}
	}
}

// addEvolution adds an evolution line. The line holds only the date, so a
// second evolution of the same file on the same day would add nothing a reader
// could use, and is not written again.
func (d *doc) addEvolution(c Change) {
	class := c.Class
	if class == "" {
		class = "INTENT_EVOLUTION"
	}
	line := fmt.Sprintf("- _[EVOLUTION %s]_ `%s` — %s", c.Time.UTC().Format(time.DateOnly), markdown.QuotePath(c.Path), markdown.OneLine(class, 0))
	s := d.section(c.IntentID)
	e := d.End(s)
	ev := d.Find(s+1, e, 3, is("Evolution Log"))
	if ev < 0 {
		d.AppendTo(s, e, "### Evolution Log", "", line)
		return
	}
	ee := d.End(ev)
	for i := ev + 1; i < ee; i++ {
		if !d.Code[i] && markdown.Text(d.Lines[i]) == line {
			return
		}
	}
	d.AppendTo(ev, ee, line)
}

// doc is a Markdown file with this package's edits.
type doc struct{ *markdown.Doc }
