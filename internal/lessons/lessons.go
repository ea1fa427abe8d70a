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
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/markdown"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/safetext"
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
	// Keep bounds the lessons kept per intent (config lessons_max; 0:
	// DefaultKeep): older ones are folded into one count line.
	Keep int
}

// DefaultKeep is lessons_max's default.
const DefaultKeep = 50

// lessonLine matches a line Record wrote: its code, intent and quoted path
// (what a repeat is recognised by) and the count suffix a repeat sets.
// A lesson about no file names none (older lines carried "-" there).
var lessonLine = lazyRegexp{expr: "^- \\[[^\\]]*\\] (\\S+): (\\S+) \\S+?(?: (`[^`]*`|-))?: (.*?)" +
	`( \(×(\d+), last \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\))?$`}

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
	path := "" // no file: the line names none
	if p := markdown.OneLine(strings.ReplaceAll(l.Path, "`", ""), 0); p != "" {
		path = "`" + p + "`"
	}
	msg := "-"
	if strings.TrimSpace(l.Message) != "" {
		msg = markdown.OneLine(safetext.Flat(l.Message), maxText)
	}
	// A tool's failures, and failed acceptance checks, differ by their
	// message: each distinct one is its own lesson (numbers and case aside).
	sameMessage := func(old string) bool {
		byMessage := strings.EqualFold(l.Code, "tool_failure") || strings.EqualFold(l.Code, "acceptance_failed")
		return !byMessage || msg == "-" || normalise(old) == normalise(msg)
	}
	return update(ctx, root, file, timeout, func(d *doc) bool {
		s := d.lessonsSection()
		e := d.End(s)
		for i := s + 1; i < e; i++ {
			if d.Code[i] {
				continue
			}
			t := markdown.Text(d.Lines[i])
			m := lessonLine.get().FindStringSubmatchIndex(t)
			if m == nil || t[m[2]:m[3]] != code || t[m[4]:m[5]] != intent || pathField(t, m[6], m[7]) != path || !sameMessage(t[m[8]:m[9]]) {
				continue
			}
			n, keep := 2, len(t)
			if m[10] >= 0 {
				keep = m[10]
				count, _ := strconv.Atoi(t[m[12]:m[13]])
				n = count + 1
			}
			d.Lines[i] = t[:keep] + fmt.Sprintf(" (×%d, last %s)", n, stamp(l.Time)) + d.Lines[i][len(t):]
			return true
		}
		line := fmt.Sprintf("- [%s] %s: %s %s", stamp(l.Time), code, intent, word(l.Tool))
		if path != "" {
			line += " " + path
		}
		d.AppendTo(s, e, line+": "+msg)
		d.fold(intent, l.Keep, l.Time)
		return true
	})
}

// pathField is a lesson line's path field (lessonLine's third group) as
// Record writes it: "" for none, as older lines' "-" is.
func pathField(t string, from, to int) string {
	if from < 0 || t[from:to] == "-" {
		return ""
	}
	return t[from:to]
}

// ByPerson is the writer of a note a person wrote: outside an agent's
// shell, and not while an agent's shell command ran.
const ByPerson = "a person"

// Note appends free text under Lessons Learned (`intenthook lesson "<text>"
// [--intent ID]`) as "- [time] note (by writer): intent text". by names the
// writer: ByPerson, or the agent that wrote it ("" is "an agent": who wrote
// a note is never left to the reader's guess). A note is never counted: the
// same words twice are two notes.
func Note(ctx context.Context, root, file string, timeout time.Duration, text, intent, by string, keep int, now time.Time) error {
	if strings.TrimSpace(text) == "" {
		return errors.New("record note: empty text")
	}
	t := markdown.OneLine(safetext.Flat(text), maxText)
	return update(ctx, root, file, timeout, func(d *doc) bool {
		s := d.lessonsSection()
		on := onWorkspace
		if intent != "" {
			on = word(intent)
		}
		d.AppendTo(s, d.End(s), fmt.Sprintf("- [%s] note (by %s) on %s: %s", stamp(now), writer(by), on, t))
		d.fold(word(intent), keep, now)
		return true
	})
}

// writer is a note's writer as its line carries it: one line, without the
// parentheses that close the field.
func writer(by string) string {
	by = strings.NewReplacer("(", "", ")", "", "`", "").Replace(markdown.OneLine(by, 200))
	if strings.TrimSpace(by) == "" {
		return "an agent"
	}
	return by
}

// personNote matches a note that says a person wrote it, with its time.
var personNote = lazyRegexp{expr: `^- \[([^\]]*)\] note \(by ` + ByPerson + `\)(?: on \S+(?: \S+)?)?: `}

// Attribute gives to who every note that says a person wrote it and is new:
// not among the lines of before (the file before the command; nil when it
// is not known) and written at or after since. The guard calls it when the
// lessons file changed while an agent's shell command ran: a note written
// then is that agent's, whatever the process that wrote it claimed (without
// before, a person's note written in the same second goes to the agent too:
// attribution fails towards the agent). The file is rewritten only when a
// note changed.
func Attribute(ctx context.Context, root, file string, timeout time.Duration, before []byte, since time.Time, who string) error {
	from := stamp(since.Truncate(time.Second))
	had := map[string]int{}
	for _, l := range strings.Split(string(before), "\n") {
		had[strings.TrimSuffix(l, "\r")]++
	}
	return update(ctx, root, file, timeout, func(d *doc) bool {
		changed := false
		s := d.findLessons()
		if s < 0 {
			return false
		}
		e := d.End(s)
		for i := s + 1; i < e; i++ {
			if d.Code[i] {
				continue
			}
			t := markdown.Text(d.Lines[i])
			m := personNote.get().FindStringSubmatch(t)
			switch {
			case m == nil:
			case had[t] > 0:
				had[t]--
			case m[1] >= from:
				d.Lines[i] = strings.Replace(d.Lines[i], "(by "+ByPerson+")", "(by "+writer(who)+")", 1)
				changed = true
			}
		}
		return changed
	})
}

// update runs edit on the lessons file under the lessons lock, with one read
// and, when edit reports a change, one atomic, durable rewrite.
func update(ctx context.Context, root, file string, timeout time.Duration, edit func(*doc) (changed bool)) error {
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
	data, err := osfile.ReadFile(path)
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
	if !edit(d) {
		return nil
	}
	out := []byte(d.String())
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("lessons: %w", err)
	}
	// Journaled first: the guard of a shell command running meanwhile
	// (intenthook lesson in it, or a hook's lesson) must not take this
	// write for a program's rewrite.
	guard.Journal(root, filepath.ToSlash(rel), out)
	if err := state.WriteFile(path, out, perm, true); err != nil {
		return fmt.Errorf("lessons: %w", err)
	}
	return nil
}

// lessonsSection returns the line of the "## Lessons Learned" heading,
// appending the section to a file that lacks it.
func (d *doc) lessonsSection() int {
	if s := d.findLessons(); s >= 0 {
		return s
	}
	d.AppendTo(0, len(d.Lines), "## "+section)
	return d.findLessons()
}

// findLessons returns the line of the "## Lessons Learned" heading, or -1.
func (d *doc) findLessons() int {
	return d.Find(0, len(d.Lines), 2, func(title string) bool { return strings.EqualFold(title, section) })
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

// normalise is a message as a dedup key: lower case, digits as #, so that
// "exit status 1" and "exit status 2" are one lesson and "no such file" and
// "permission denied" are two.
func normalise(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return '#'
		}
		return unicode.ToLower(r)
	}, s)
}

// stamp is RFC 3339 in UTC to the second, the same on every machine.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// doc is a Markdown file with this package's edits.
type doc struct{ *markdown.Doc }

// onWorkspace stands where a note names its intent when it has none.
const onWorkspace = "the workspace"

// noteLine matches a note Note wrote, "note (by WRITER) on INTENT: text"
// (on the workspace, for none), or one written before notes said "on":
// "note (by WRITER): INTENT text", with "-" for none (and before that,
// without the writer). The first group is the intent of the first form,
// the second of the older.
var noteLine = lazyRegexp{expr: `^- \[[^\]]*\] note(?: \(by [^()]*\))?(?: on (the workspace|\S+): |: (\S+) )`}

// noteIntent is a note line's intent token from noteLine's match: "-"
// for none.
func noteIntent(m []string) string {
	switch {
	case m[1] == onWorkspace:
		return "-"
	case m[1] != "":
		return m[1]
	}
	return m[2]
}

// Relevant returns the lessons of file (relative to root; empty means
// DefaultFile) that concern intent: recorded under it, or naming a path
// inScope accepts (nil: none). Newest first, at most n; a missing file has
// none. Only the Lessons Learned section is read.
func Relevant(root, file, intent string, inScope func(path string) bool, n int) []string {
	id := word(intent)
	return scan(root, file, n, func(note bool, lineIntent, path string) bool {
		if note {
			return lineIntent == id
		}
		return lineIntent == id || (inScope != nil && path != "" && inScope(strings.Trim(path, "`")))
	})
}

// General returns the lessons of file that concern the whole workspace:
// recorded under no intent and about no file. Newest first, at most n.
func General(root, file string, n int) []string {
	return scan(root, file, n, func(note bool, lineIntent, path string) bool {
		return lineIntent == "-" && path == ""
	})
}

// scan returns the newest n lines of the Lessons Learned section that keep
// accepts: a note by its intent token, another lesson by its intent token
// and path field ("" or a backticked path). A note under no intent has
// the token "-", as a lesson does.
func scan(root, file string, n int, keep func(note bool, lineIntent, path string) bool) []string {
	if file == "" {
		file = DefaultFile
	}
	rel := filepath.FromSlash(file)
	if !filepath.IsLocal(rel) || n <= 0 {
		return nil
	}
	data, err := osfile.ReadFile(filepath.Join(root, rel))
	if err != nil {
		return nil
	}
	var lines []string
	in := false
	for _, l := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		if strings.HasPrefix(l, "## ") {
			in = strings.EqualFold(strings.TrimSpace(l[3:]), section)
			continue
		}
		if in && strings.HasPrefix(l, "- [") {
			lines = append(lines, l)
		}
	}
	var out []string
	for i := len(lines) - 1; i >= 0 && len(out) < n; i-- {
		l := lines[i]
		if m := noteLine.get().FindStringSubmatch(l); m != nil {
			if keep(true, noteIntent(m), "") {
				out = append(out, l)
			}
			continue
		}
		if m := lessonLine.get().FindStringSubmatch(l); m != nil && keep(false, m[2], strings.TrimPrefix(m[3], "-")) {
			out = append(out, l)
		}
	}
	return out
}

// foldedLine matches the count line of an intent's folded lessons.
var foldedLine = lazyRegexp{expr: `^- \[[^\]]*\] folded: (\S+) (\d+) older lesson`}

// fold keeps the newest keep lessons and notes of intent (a token, as
// written) under Lessons Learned: older ones are removed and counted on one
// "folded" line, so that the file stays bounded however long the project
// runs (agents get the newest through the hook's context).
func (d *doc) fold(intent string, keep int, now time.Time) {
	if keep <= 0 {
		keep = DefaultKeep
	}
	s := d.lessonsSection()
	e := d.End(s)
	var mine []int
	folded, prior := -1, 0
	for i := s + 1; i < e; i++ {
		if d.Code[i] {
			continue
		}
		t := markdown.Text(d.Lines[i])
		if m := foldedLine.get().FindStringSubmatch(t); m != nil {
			if m[1] == intent {
				folded = i
				prior, _ = strconv.Atoi(m[2])
			}
			continue
		}
		if m := noteLine.get().FindStringSubmatch(t); m != nil && noteIntent(m) == intent {
			mine = append(mine, i)
		} else if m := lessonLine.get().FindStringSubmatch(t); m != nil && m[2] == intent {
			mine = append(mine, i)
		}
	}
	if len(mine) <= keep {
		return
	}
	drop := mine[:len(mine)-keep]
	count := fmt.Sprintf("- [%s] folded: %s %d older lesson(s) removed; the newest %d are kept", stamp(now), intent, prior+len(drop), keep)
	// The count takes the place of the line it already had, else of the
	// oldest lesson it folds; the line's ending (CRLF or not) is kept.
	at := folded
	if at < 0 {
		at, drop = drop[0], drop[1:]
	}
	d.Lines[at] = count + d.Lines[at][len(markdown.Text(d.Lines[at])):]
	for i := len(drop) - 1; i >= 0; i-- {
		d.Lines = append(d.Lines[:drop[i]], d.Lines[drop[i]+1:]...)
		d.Code = append(d.Code[:drop[i]], d.Code[drop[i]+1:]...)
	}
}

// lazyRegexp is a regular expression compiled on first use. A variable of
// it is laid out by the linker, where sync.OnceValue's call would run in
// the package's initialiser on every hook's start, whatever the call.
type lazyRegexp struct {
	once sync.Once
	expr string
	re   *regexp.Regexp
}

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}
