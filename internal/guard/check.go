package guard

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// CodeGovernanceTampered is the violation of a shell command that changed
// the rules: the catalog, config, ignore file, an agent's hook settings,
// git's hooks or risky config keys, the ledger's existing bytes, or the
// programs the hooks run.
const CodeGovernanceTampered = "governance_tampered"

// Call is what the guard asks of the hook call whose command ran. The
// guard judges; what a hook process wrote and what HEAD holds are the
// call's to say, since the guard sits below the ledger, the catalog's
// lifecycle and git.
type Call interface {
	// Wrote reports whether a change is a hook process's own: a journal
	// line of a hook names it, and the change is one hooks make.
	Wrote(c Change) bool
	// Committed reports whether rel is now as HEAD's tree has it (absent
	// from both counts), as git sees it (its filters applied).
	Committed(rel string) bool
}

// Options are the facts a Check needs that the guard does not read itself.
type Options struct {
	// Targets are the watched paths (as at the picture).
	Targets []Target
	// Head is HEAD's commit now: only when it moved during the command does
	// a committed version excuse a change (a checkout, pull or stash pop).
	Head string
	// Command is the shell command, for the hook installers' excuse.
	Command string
	// SegmentDir is the ledger's segment directory; Active the segment the
	// hooks append to now; Rollover says whether a segment the command
	// added is the hooks' own rollover (this work tree's next number).
	SegmentDir string
	Active     string
	Rollover   func(rel string) bool
	// HeadBlob returns HEAD's version of a segment, to put it back (ok
	// false when HEAD has none).
	HeadBlob func(rel string) ([]byte, bool)
	// LessonsFile is the lessons file's path as the table's row names it
	// for this workspace ("" when there is none).
	LessonsFile string
	// Rescued are changes already put back before the rules were loaded
	// (Rescue): they count as undone.
	Rescued []Change
	Now     time.Time
}

// Result is what a Check found and did.
type Result struct {
	// Changes are every watched path the command changed; Undone those
	// put back.
	Changes, Undone []Change
	// Installed are the git hooks (or config) a hook installer changed:
	// excused, but precommit runs only if the new hooks call it.
	Installed []string
	// LedgerOK says the legacy ledger's bytes are as they were.
	LedgerOK bool
	// Programs are the programs the hook wiring runs that the command
	// replaced, changed or removed: none can be put back.
	Programs []ProgramChange
	// Segments are the ledger segments the command added, removed or
	// changed, each undone (or not: Err).
	Segments []SegmentUndo
	// Appended are where the ledger grew during the command: what an
	// anchor appended then is the call's.
	Appended []Span
	// Lessons is the lessons file's change when it stood (intenthook
	// lesson wrote it, not a program): the notes it gained are the call's.
	Lessons *Change
}

// Tampered reports whether the command changed the rules or the record.
func (r Result) Tampered() bool {
	return len(r.Undone) > 0 || !r.LedgerOK || len(r.Segments) > 0 || len(r.Programs) > 0
}

// Paths lists what the command changed of the rules and the record: the
// files put back, the legacy ledger when its bytes changed, the segments.
func (r Result) Paths() []string {
	var out []string
	for _, c := range r.Undone {
		out = append(out, c.Rel)
	}
	if !r.LedgerOK {
		out = append(out, Ledger)
	}
	for _, c := range r.Segments {
		out = append(out, c.Rel)
	}
	for _, c := range r.Programs {
		out = append(out, c.Rel)
	}
	return out
}

// SegmentUndo is a segment the command added, removed or changed, and
// what became of it: Kept is where the command's version now lies.
type SegmentUndo struct {
	SegmentChange
	Kept string
	Err  error
}

// Span is where a ledger file grew during a command: Rel from byte From.
type Span struct {
	Rel  string
	From int64
}

// Check compares the governance files with the picture s taken before
// the command and puts back every change no hook process made, no hook
// installer was there to make, and no move of HEAD explains; it checks
// the legacy ledger's bytes and the segments, and finds where the ledger
// grew and whether the lessons file's change stood.
func Check(root string, s *Snapshot, call Call, o Options) Result {
	r := Result{Changes: Compare(root, s, o.Targets)}
	moved := o.Head != s.Head && o.Head != ""
	installer := HookInstaller(o.Command)
	excused := func(c Change) bool {
		if c.Linked {
			// Hooks write through a rename and git checks out files of
			// one name: nothing excuses a second name, whatever a journal
			// line says or HEAD did.
			return false
		}
		if c.Before.Kind == Mods {
			// No hook writes there and no commit brings a file there.
			return false
		}
		if call.Wrote(c) {
			return true
		}
		if installer && (c.Before.Kind == Hook || c.Before.Kind == GitConfig) {
			r.Installed = append(r.Installed, c.Rel)
			return true
		}
		// State is never committed: a move of HEAD explains no change there.
		stateOnly := c.Before.Kind == Files || c.Before.Kind == Mirrored
		return moved && !stateOnly && !filepath.IsAbs(c.Rel) && call.Committed(c.Rel)
	}
	r.Undone = append(o.Rescued, Undo(root, r.Changes, excused, o.Now)...)
	r.LedgerOK = LedgerIntact(root, s)
	r.Programs = ComparePrograms(root, s)
	r.Segments = undoSegments(root, s, call, o, moved)
	r.Appended = appended(root, s, o.Active)
	r.Lessons = lessonsKept(r.Changes, r.Undone, o.LessonsFile)
	return r
}

// Rescue puts back the rules a command left unreadable, before the
// workspace can load: only what a hook wrote is excused, since nothing
// else can be judged before the rules are read.
func Rescue(root string, s *Snapshot, call Call, targets []Target, now time.Time) []Change {
	return Undo(root, Compare(root, s, targets), call.Wrote, now)
}

// undoSegments finds the segments the command added, removed or changed
// (a hook's rollover, and a move of HEAD that brought committed segments,
// excepted) and undoes each: an added one moves to state/undone/, a
// removed or changed one is put back from HEAD when it is committed there.
func undoSegments(root string, s *Snapshot, call Call, o Options, moved bool) []SegmentUndo {
	rollover := o.Rollover
	if rollover == nil {
		rollover = func(string) bool { return false }
	}
	var out []SegmentUndo
	for _, c := range CompareSegments(root, o.SegmentDir, s, rollover) {
		if moved && call.Committed(c.Rel) {
			continue
		}
		var head []byte
		if c.What != "added" && o.HeadBlob != nil {
			if b, ok := o.HeadBlob(c.Rel); ok {
				head = b
			}
		}
		kept, err := UndoSegment(root, c, head, o.Now.UTC().Format("20060102T150405.000000000Z"))
		out = append(out, SegmentUndo{c, kept, err})
	}
	return out
}

// appended finds what the hooks' appender wrote during the command: the
// segment active at the picture past its size then, and the segment
// active now (active) from its start when a rollover started a new one.
// Nothing else is read.
func appended(root string, s *Snapshot, active string) []Span {
	var out []Span
	before := ""
	for rel, m := range s.Segments {
		if m.Tail != "" {
			before = rel
			if st, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err == nil && st.Size() > m.Size {
				out = append(out, Span{rel, m.Size})
			}
		}
	}
	if active != "" && active != before {
		if _, had := s.Segments[active]; !had {
			out = append(out, Span{active, 0})
		}
	}
	return out
}

// lessonsKept returns the lessons file's change during the command when
// it stood (intenthook lesson wrote it, not a program).
func lessonsKept(changes, undone []Change, rel string) *Change {
	if rel == "" {
		return nil
	}
	is := func(c Change) bool { return c.Rel == rel }
	i := slices.IndexFunc(changes, is)
	if i < 0 || slices.ContainsFunc(undone, is) {
		return nil
	}
	return &changes[i]
}

// HookInstaller reports whether command runs a tool whose job is to
// install git hooks (husky through a package manager, pre-commit,
// lefthook): the hooks and core.hooksPath it changes are its normal work.
// Nothing else it changes is excused.
func HookInstaller(command string) bool {
	words := strings.FieldsFunc(command, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == ';' || r == '&' || r == '|' || r == '(' || r == ')'
	})
	for i, w := range words {
		next := ""
		if i+1 < len(words) {
			next = words[i+1]
		}
		switch filepath.Base(w) {
		case "husky":
			return true
		case "npm", "pnpm", "yarn", "bun":
			switch next {
			case "install", "i", "ci", "add", "prepare":
				return true
			}
		case "pre-commit", "lefthook", "prek", "overcommit":
			if next == "install" || next == "--install" {
				return true
			}
		}
	}
	return false
}
