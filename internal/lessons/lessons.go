// Package lessons keeps the shared lessons file (.orchestration/CLAUDE.md by
// default, SPEC §7.5): one line under "## Lessons Learned" per denial or tool
// failure that agents should learn from, a repeat counted on the first line
// instead of added, and free-text notes. Agents read the file and people edit
// it, so every value is written on one line and every other byte is kept. It
// does not decide what is worth a lesson; the hook does.
package lessons

import (
	"context"
	"errors"
	"fmt"
	"github.com/intenthook/intenthook/internal/markdown"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/intenthook/intenthook/internal/state"
)

// DefaultFile is the lessons file's path, relative to the workspace root,
// when the config's lessons_file does not name another.
const DefaultFile = ".orchestration/CLAUDE.md"

// DefaultLockTimeout is how long Record and Note wait for the lessons lock
// when given no timeout (config lock_timeout).
const DefaultLockTimeout = 2 * time.Second

// maxText bounds a message or note: agents load the file into their context,
// and a tool's whole stack trace would crowd out every other lesson.
const maxText = 2000

// template is a new lessons file: the sections of the seeds' shared brain.
const template = `# Shared Brain

intenthook appends a lesson under Lessons Learned after each denial or failed tool call; the rest is yours to edit.

## Architectural Decisions

## Lessons Learned

## Project-Specific Rules

## Known Issues

## Future Enhancements
`

const section = "Lessons Learned"

// Lesson is what an agent should learn from one denial or failure.
type Lesson struct {
	Time    time.Time
	Code    string // why: SCOPE_VIOLATION, STALE_FILE, TOOL_FAILURE…
	Intent  string // the intent ID; empty when none was selected
	Tool    string
	Path    string // workspace-relative; empty when the call named no file
	Message string
}

// lessonLine matches a line Record wrote: its code, intent and quoted path
// (what a repeat is recognised by) and the count suffix a repeat sets.
var lessonLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("^- \\[[^\\]]*\\] (\\S+): (\\S+) \\S+ (`[^`]*`|-): .*?" +
		`( \(×(\d+), last \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\))?$`)
})

// Record appends the lesson at the end of Lessons Learned as
// "- [time] code: intent tool `path`: message". When a line with the same
// code, intent and path is there already, that line keeps its first time and
// text and gets a count, " (×N, last time)", instead. file is relative to root;
// empty means DefaultFile. A timeout of zero means DefaultLockTimeout.
func Record(ctx context.Context, root, file string, timeout time.Duration, l Lesson) error {
	if l.Code == "" {
		return errors.New("record lesson: no code")
	}
	code, intent := word(l.Code), word(l.Intent)
	path := "-"
	if p := markdown.OneLine(strings.ReplaceAll(l.Path, "`", ""), 0); p != "" {
		path = "`" + p + "`"
	}
	msg := "-"
	if strings.TrimSpace(l.Message) != "" {
		msg = markdown.OneLine(l.Message, maxText)
	}
	return update(ctx, root, file, timeout, func(d *doc) {
		s := d.lessonsSection()
		e := d.End(s)
		for i := s + 1; i < e; i++ {
			if d.Code[i] {
				continue
			}
			t := markdown.Text(d.Lines[i])
			m := lessonLine().FindStringSubmatchIndex(t)
			if m == nil || t[m[2]:m[3]] != code || t[m[4]:m[5]] != intent || t[m[6]:m[7]] != path {
				continue
			}
			n, keep := 2, len(t)
			if m[8] >= 0 {
				keep = m[8]
				count, _ := strconv.Atoi(t[m[10]:m[11]])
				n = count + 1
			}
			d.Lines[i] = t[:keep] + fmt.Sprintf(" (×%d, last %s)", n, stamp(l.Time)) + d.Lines[i][len(t):]
			return
		}
		d.AppendTo(s, e, fmt.Sprintf("- [%s] %s: %s %s %s: %s", stamp(l.Time), code, intent, word(l.Tool), path, msg))
	})
}

// Note appends free text under Lessons Learned (`intenthook lesson "<text>"
// [--intent ID]`) as "- [time] note: intent text". A note is never counted:
// the same words twice are two notes.
func Note(ctx context.Context, root, file string, timeout time.Duration, text, intent string, now time.Time) error {
	if strings.TrimSpace(text) == "" {
		return errors.New("record note: empty text")
	}
	t := markdown.OneLine(text, maxText)
	return update(ctx, root, file, timeout, func(d *doc) {
		s := d.lessonsSection()
		d.AppendTo(s, d.End(s), fmt.Sprintf("- [%s] note: %s %s", stamp(now), word(intent), t))
	})
}

// update runs edit on the lessons file under the lessons lock, with one read
// and one atomic, durable rewrite.
func update(ctx context.Context, root, file string, timeout time.Duration, edit func(*doc)) error {
	if file == "" {
		file = DefaultFile
	}
	// The name comes from a config file anyone can commit.
	rel := filepath.FromSlash(file)
	if !filepath.IsLocal(rel) {
		return fmt.Errorf("lessons file %q: not a path inside the workspace", file)
	}
	path := filepath.Join(root, rel)
	if timeout <= 0 {
		timeout = DefaultLockTimeout
	}
	unlock, err := state.Lock(ctx, root, state.LockLessons, timeout)
	if err != nil {
		return fmt.Errorf("lessons: %w", err)
	}
	defer unlock()

	perm := fs.FileMode(0o644)
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("lessons: %w", err)
	default:
		if fi, err := os.Stat(path); err == nil {
			perm = fi.Mode().Perm() // a person may have chosen it
		}
	}
	src := string(data)
	if strings.TrimSpace(src) == "" {
		src = template
	}
	d := &doc{markdown.Parse(src)}
	edit(d)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("lessons: %w", err)
	}
	if err := state.WriteFile(path, []byte(d.String()), perm, true); err != nil {
		return fmt.Errorf("lessons: %w", err)
	}
	return nil
}

// lessonsSection returns the line of the "## Lessons Learned" heading,
// appending the section to a file that lacks it.
func (d *doc) lessonsSection() int {
	match := func(title string) bool { return strings.EqualFold(title, section) }
	if s := d.Find(0, len(d.Lines), 2, match); s >= 0 {
		return s
	}
	d.AppendTo(0, len(d.Lines), "## "+section)
	return d.Find(0, len(d.Lines), 2, match)
}

// word writes a code, intent or tool as one token, so that a line can be read
// back by its fields: spaces and backticks are escaped too, and an empty
// value is "-".
func word(s string) string {
	s = markdown.OneLine(s, 0)
	if s == "" {
		return "-"
	}
	return strings.NewReplacer(" ", `\x20`, "`", `\x60`).Replace(s)
}

// stamp is RFC 3339 in UTC to the second, the same on every machine.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// doc is a Markdown file with this package's edits.
type doc struct{ *markdown.Doc }
