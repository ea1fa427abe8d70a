// Package guard watches the rules while a shell command runs (SPEC §8, the
// backstop): the catalog, config.yaml, .intentignore, the catalog cache,
// the agents' committed hook settings, the git hooks and git's risky config
// keys, and the ledger's existing bytes. Before a command it takes a cheap
// picture (size, modification time and hash of each file, and a copy of the
// content under state/guard/); after it, a change that no hook process made
// and that no move of HEAD explains is undone: the picture is put back and
// the changed version kept under state/undone/ for a person to re-apply.
//
// Parsing decides what it can see; the guard catches what it cannot (awk,
// sort -o, tar, git checkout of a governance file, a renamed copy of the
// binary), whatever program made the change.
package guard

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/osfile"
)

// Dir is the guard's directory under .orchestration/state/: content copies
// by sha256, and the journal of hook writes.
const Dir = ".orchestration/state/guard"

// UndoneDir keeps the versions the guard displaced.
const UndoneDir = ".orchestration/state/undone"

// Ledger is the legacy ledger file, append-only: its existing bytes must
// not change. Segments are watched apart (segments.go).
const Ledger = ".orchestration/agent_trace.jsonl"

// maxKept bounds the content copied per file: a larger governance file is
// watched, but a change to it can only be reported, not undone.
const maxKept = 1 << 20

// tailLen is how much of the ledger's end is hashed: the last line at the
// old end, whatever its length up to this.
const tailLen = 512

// Kind says how a watched path is compared.
type Kind uint8

const (
	// Whole files: any change counts.
	Whole Kind = iota
	// GitConfig: only the risky keys count (core.hooksPath, aliases,
	// filters, …); git push -u and git remote add write the rest.
	GitConfig
	// Hook: a file of the git hooks directory.
	Hook
	// Cache: derived from the catalog; a change is undone by removing it.
	Cache
	// StateDir: a directory of state files that loosen a decision, which
	// only hook processes write (and journal): a file written during the
	// command by anything else is taken out. Nothing is pictured but the
	// time.
	StateDir
	// Wiring: an agent's JSON hook settings, judged by effect: only a
	// change that makes intenthook's hooks fire less, adds a hook or
	// changes one of the target's keys counts, and only the hooks and
	// those keys are put back (wiring.go).
	Wiring
	// Lessons: a lessons file outside .orchestration/ (a root CLAUDE.md an
	// agent also keeps its memory in): only its "## Lessons Learned"
	// section counts, and only that section is put back.
	Lessons
	// Program: a program the hook wiring runs, pictured by its stat
	// fingerprint alone (programs.go): any change counts, and none can be
	// put back.
	Program
	// Files: a directory whose files are each pictured whole; one added
	// is taken out (statedirs.go).
	Files
	// Mirrored: a directory of append-only logs kept twice, the hooks'
	// copy first (statedirs.go).
	Mirrored
	// Mods: a folder outside the workspace from which an agent loads code
	// into its own process (Claude Code's dev-mods), its files pictured at
	// any depth; one added is taken out, one changed put back, nothing
	// excused (mods.go).
	Mods
)

// LessonsHeading is the section a Lessons target guards.
const LessonsHeading = "Lessons Learned"

// lessonsSection returns the bytes of the "## Lessons Learned" section of
// a Markdown file (heading included, up to the next heading of level one
// or two), and where they start and end; found is false without one.
func lessonsSection(data []byte) (start, end int, found bool) {
	at := 0
	start = -1
	for at < len(data) {
		next := bytes.IndexByte(data[at:], '\n')
		lineEnd := len(data)
		if next >= 0 {
			lineEnd = at + next + 1
		}
		line := strings.TrimRight(string(data[at:lineEnd]), "\r\n")
		heading := strings.HasPrefix(line, "# ") || strings.HasPrefix(line, "## ")
		switch {
		case start < 0 && strings.HasPrefix(line, "## ") && strings.EqualFold(strings.TrimSpace(line[3:]), LessonsHeading):
			start = at
		case start >= 0 && heading:
			return start, at, true
		}
		at = lineEnd
	}
	if start < 0 {
		return 0, 0, false
	}
	return start, len(data), true
}

// sameLessons reports whether two versions of a lessons file have the
// same Lessons Learned section.
func sameLessons(a, b []byte) bool {
	as, ae, aok := lessonsSection(a)
	bs, be, bok := lessonsSection(b)
	return aok == bok && bytes.Equal(a[as:ae], b[bs:be])
}

// Target is one watched path: Rel is root-relative (slash-separated) when
// the path lies in the workspace, else absolute.
type Target struct {
	Rel  string
	Kind Kind
	// Hooks, for Wiring: the keys and init's matchers it is judged by.
	Hooks *governed.Hooks
	// Fresh: read at every picture, not remembered in state/guard/index
	// (a session's own state: one file per session would grow the index).
	Fresh bool
	// Log, for Mirrored: the one log of the directory watched, by its
	// name; "" watches every log (one per session: the check would grow
	// with the sessions the workspace has had).
	Log string
	// Lock, for Mirrored: takes the lock the writers of the log named
	// hold, where they compact their logs (ReplaceMirror); nil where
	// they only append.
	Lock func(name string) (unlock func(), err error)
}

// File is one watched path's picture.
type File struct {
	Kind Kind   `json:"k,omitempty"`
	FP   string `json:"fp,omitempty"`   // size:mtime:ctime:inode:mode; "" when absent
	Hash string `json:"hash,omitempty"` // sha256 of the content
	Kept bool   `json:"kept,omitempty"` // a copy is under state/guard/
	// Links is the file's link count at the picture (0: not known, as on
	// Windows). A command that raises it gave a governance file a second
	// name (ln CATALOG src/x), through which a program left running could
	// write it later with nothing to compare: a change, put back as a
	// fresh file of one name.
	Links uint64 `json:"links,omitempty"`
}

// Snapshot is the picture taken before one shell call.
type Snapshot struct {
	Head     string          `json:"head,omitempty"` // HEAD's commit
	HooksDir string          `json:"hooks_dir,omitempty"`
	Files    map[string]File `json:"files"`
	// The ledger's size and the sha256 of the bytes before its end.
	LedgerSize int64  `json:"ledger_size"`
	LedgerTail string `json:"ledger_tail,omitempty"`
	// At is when the picture was taken (Unix nanoseconds): a file of a
	// watched state directory whose inode changed since (its ctime, which
	// touch cannot set back) was written during the command.
	At int64 `json:"at,omitempty"`
	// The ledger's segments, and the number of this work tree's newest.
	Segments map[string]SegmentMark `json:"segments,omitempty"`
	WriterN  int                    `json:"writer_n,omitempty"`
	// JournalAt is the journal's size at the picture: only lines after it
	// excuse a change (JournaledDuring). Call is the pictured call's
	// tool_use_id, whose own hooks do not run while its command does.
	JournalAt int64  `json:"journal_at,omitempty"`
	Call      string `json:"call,omitempty"`
	// AnchorsAt is the anchor index's size at the picture (nil from a
	// version that did not keep it): what it grew by is read after.
	AnchorsAt *int64 `json:"anchors_at,omitempty"`
	// Reflog is the size of HEAD's reflog at the picture, and Tips the
	// local branches' tips (TipsKnown: all could be read): what HEAD
	// holds after the command that none of them held, and the commits the
	// reflog adds, are the command's own, and excuse no change to the
	// rules.
	Reflog    int64    `json:"reflog,omitempty"`
	Tips      []string `json:"tips,omitempty"`
	TipsKnown bool     `json:"tips_known,omitempty"`
	// Programs are the programs the hook wiring runs, by their stat
	// fingerprints (ProgramPrint; "" when absent).
	Programs map[string]string `json:"programs,omitempty"`
	// Mods are the mods folders pictured (Mods targets; their files are in
	// Files): only a command that could write there has any.
	Mods []ModsMark `json:"mods,omitempty"`
}

// Watch lists the files to watch from the governance table's Guarded rows
// (workspace.Governance); git's config file is at gitConfig (absolute, ""
// outside git), and the rows under the common git directory (the claims,
// the governed marker) beside it. The hook files are found by Take and
// Compare, the ledger's marks by Take and LedgerIntact.
func Watch(root string, files []governed.File, gitConfig string) []Target {
	var ts []Target
	for _, f := range files {
		switch f.Watch {
		case governed.Whole:
			ts = append(ts, Target{Rel: f.Path, Kind: Whole})
		case governed.Cache:
			ts = append(ts, Target{Rel: f.Path, Kind: Cache})
		case governed.StateDir:
			ts = append(ts, Target{Rel: f.Path, Kind: StateDir})
		case governed.Program:
			ts = append(ts, Target{Rel: f.Path, Kind: Program})
		case governed.Journaled:
			ts = append(ts, Target{Rel: f.Path, Kind: Files})
		case governed.Mirrored:
			ts = append(ts, Target{Rel: f.Path, Kind: Mirrored})
		case governed.HookSettings:
			ts = append(ts, Target{Rel: f.Path, Kind: Wiring, Hooks: f.Hooks})
		case governed.GitConfig:
			if gitConfig != "" {
				ts = append(ts, Target{Rel: relTo(root, gitConfig), Kind: GitConfig})
			}
		case governed.GitMarker:
			if rel, ok := besideConfig(root, gitConfig, f.Path); ok {
				ts = append(ts, Target{Rel: rel, Kind: Whole})
			}
		case governed.Claims, governed.CommonJournaled:
			if rel, ok := besideConfig(root, gitConfig, f.Path); ok {
				ts = append(ts, Target{Rel: rel, Kind: Files})
			}
		}
	}
	return ts
}

// hookFiles lists the files git would run from dir (sample hooks are not
// run, and are left out).
func hookFiles(dir string) []string {
	if dir == "" {
		return nil
	}
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".sample") && !e.IsDir() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// Take pictures the targets under root. A file whose fingerprint is the
// one state/guard/index remembers is not read again: its hash and its kept
// copy are the index's (a copy is checked against its hash before it is
// put back). Other files are read, hashed and copied, and the index
// updated. head is HEAD's commit ("" outside git).
func Take(root string, targets []Target, hooksDir, head string) (*Snapshot, error) {
	s := &Snapshot{Head: head, HooksDir: hooksDir, Files: make(map[string]File, len(targets)+4), JournalAt: JournalSize(root)}
	idx := readIndex(root)
	dirty := false
	var errs []error
	keep := func(rel string, kind Kind, fresh bool) {
		path := abs(root, rel)
		if st, err := os.Lstat(path); err == nil && st.Mode().IsRegular() && !fresh {
			if known, ok := idx[rel]; ok && known.FP == fingerprint(path, st) {
				s.Files[rel] = File{Kind: kind, FP: known.FP, Hash: known.Hash, Kept: true, Links: osfile.Links(st)}
				return
			}
		}
		f, content, err := look(path, kind)
		if err != nil {
			errs = append(errs, err)
		}
		if content != nil {
			if err := keepCopy(root, f.Hash, content); err == nil {
				f.Kept = true
				if !fresh {
					idx[rel] = f
					dirty = true
				}
			} else {
				errs = append(errs, err)
			}
		}
		s.Files[rel] = f
	}
	for _, t := range targets {
		switch t.Kind {
		case StateDir, Program, Mirrored:
		case Files:
			for _, rel := range dirFiles(root, t.Rel) {
				keep(rel, Files, false)
			}
		case Mods:
			files, full := modsFiles(t.Rel, maxModsFiles)
			for _, p := range files {
				keep(p, Mods, false)
			}
			s.Mods = append(s.Mods, ModsMark{Dir: t.Rel, Full: full})
		default:
			keep(t.Rel, t.Kind, t.Fresh)
		}
	}
	s.Programs = takePrograms(root, targets)
	for _, p := range hookFiles(hooksDir) {
		keep(relTo(root, p), Hook, false)
	}
	if dirty {
		errs = append(errs, writeIndex(root, idx))
	}
	s.LedgerSize, s.LedgerTail = tailMark(root, Ledger, -1)
	s.At = time.Now().UnixNano()
	return s, errors.Join(errs...)
}

// indexName remembers, per watched file, the fingerprint and hash of the
// content last copied: "<rel>\t<fingerprint>\t<sha256>" lines.
const indexName = "index"

func readIndex(root string) map[string]File {
	idx := map[string]File{}
	data, err := osfile.ReadFile(filepath.Join(root, filepath.FromSlash(Dir), indexName))
	if err != nil {
		return idx
	}
	for _, line := range strings.Split(string(data), "\n") {
		parts := strings.Split(line, "\t")
		if len(parts) == 3 && len(parts[2]) == 64 {
			idx[parts[0]] = File{FP: parts[1], Hash: parts[2], Kept: true}
		}
	}
	return idx
}

func writeIndex(root string, idx map[string]File) error {
	var b strings.Builder
	for rel, f := range idx {
		if f.Kept && !strings.ContainsAny(rel, "\t\n") {
			b.WriteString(rel + "\t" + f.FP + "\t" + f.Hash + "\n")
		}
	}
	return writeAtomic(filepath.Join(root, filepath.FromSlash(Dir), indexName), []byte(b.String()), 0o644)
}

// look pictures one path; content is returned when it is small enough to
// keep.
func look(path string, kind Kind) (File, []byte, error) {
	st, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return File{Kind: kind}, nil, nil
	}
	if err != nil {
		return File{Kind: kind}, nil, err
	}
	f := File{Kind: kind, FP: fingerprint(path, st), Links: osfile.Links(st)}
	if !st.Mode().IsRegular() {
		f.Hash = "!" + st.Mode().Type().String() // a link or directory in a file's place
		return f, nil, nil
	}
	if st.Size() > maxKept {
		h, err := hashFile(path)
		f.Hash = h
		return f, nil, err
	}
	data, err := osfile.ReadFile(path)
	if err != nil {
		return f, nil, err
	}
	f.Hash = hashBytes(data)
	return f, data, nil
}

// fingerprint is size, modification time, change time, file number (the
// inode; on Windows the file index) and mode: a file replaced by another (a
// rename over it) differs even with the same size and time, and one
// rewritten in place differs by its change time, which touch cannot set
// back (the modification time it can).
func fingerprint(path string, st os.FileInfo) string {
	ino := osfile.FileID(path, st)
	return strconv.FormatInt(st.Size(), 10) + ":" + strconv.FormatInt(st.ModTime().UnixNano(), 10) + ":" + strconv.FormatInt(osfile.ChangeTime(st), 10) + ":" + strconv.FormatUint(ino, 10) + ":" + strconv.FormatUint(uint64(st.Mode()), 8)
}

func hashBytes(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func hashFile(path string) (string, error) {
	f, err := osfile.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func keepCopy(root, hash string, content []byte) error {
	path := filepath.Join(root, filepath.FromSlash(Dir), hash)
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return writeAtomic(path, content, 0o644)
}

// writeAtomic puts data at path through a temporary file and a rename: a
// link at path is replaced, never followed.
func writeAtomic(path string, data []byte, perm os.FileMode) error {
	tmp, err := osfile.CreateTemp(filepath.Dir(path), ".guard-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), perm)); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	if err := osfile.Rename(tmp.Name(), path); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	return nil
}

func abs(root, rel string) string {
	if filepath.IsAbs(rel) {
		return rel
	}
	return filepath.Join(root, filepath.FromSlash(rel))
}

// besideConfig is where a row under ".git/" is in the common git
// directory, the one that holds git's config: a linked work tree's is
// outside the workspace.
func besideConfig(root, gitConfig, row string) (string, bool) {
	dir, ok := strings.CutPrefix(row, ".git/")
	if !ok || gitConfig == "" {
		return "", false
	}
	return relTo(root, filepath.Join(filepath.Dir(gitConfig), filepath.FromSlash(dir))), true
}

// relTo names p root-relative when it lies in root, else absolutely.
func relTo(root, p string) string {
	r, err := filepath.Rel(root, p)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return p
	}
	return filepath.ToSlash(r)
}

// Change is one watched path the command changed.
type Change struct {
	Rel    string
	Before File
	After  File
	// Undone says the picture was put back; Kept is where the displaced
	// version now lies (root-relative), "" when there was none.
	Undone bool
	Kept   string
	Err    error
	// Linked says the command gave the file another name (its link count
	// rose); the file goes back as a fresh one, and the other name keeps
	// the displaced version, no longer the governance file.
	Linked bool
	// Partial says only the wiring (Wiring) or the Lessons Learned section
	// (Lessons) was put back, the rest of the file kept as the command left
	// it.
	Partial bool
	// keys are a Wiring file's keys put back (wiringKeys).
	keys []string
}

// Excuse says whether a change is legitimate: a hook journaled it, or HEAD
// moved and the file now equals its committed version.
type Excuse func(c Change) bool

// Compare returns the watched paths that differ from the snapshot. A
// fingerprint that matches is trusted without reading the file.
func Compare(root string, s *Snapshot, targets []Target) []Change {
	seen := map[string]bool{}
	var out []Change
	check := func(rel string, kind Kind, spec *governed.Hooks) {
		if seen[rel] {
			return
		}
		seen[rel] = true
		before := s.Files[rel]
		before.Kind = kind
		path := abs(root, rel)
		if st, err := os.Lstat(path); err == nil && before.FP == fingerprint(path, st) && !linked(before, osfile.Links(st)) {
			return
		} else if errors.Is(err, os.ErrNotExist) && before.FP == "" {
			return
		}
		after, content, _ := look(path, kind)
		if linked(before, after.Links) && after.Hash != "" && !strings.HasPrefix(after.Hash, "!") {
			// A second name, whatever the content: judged before the
			// effect, which a link does not change.
			out = append(out, Change{Rel: rel, Before: before, After: after, Linked: true, keys: wiringKeys(spec)})
			return
		}
		if after.Hash == before.Hash && (after.FP == "") == (before.FP == "") {
			return
		}
		if kind == GitConfig && before.Kept {
			old, _ := Kept(root, before)
			if slices.Equal(RiskyKeys(old), RiskyKeys(content)) {
				return
			}
		}
		if kind == Wiring && (before.Kept || before.FP == "") && (content != nil || after.FP == "") {
			// Judged by effect: a file that did not exist, or is gone, is
			// one without hooks.
			var old []byte
			if before.FP != "" {
				old, _ = Kept(root, before)
			}
			if !rewired(old, content, spec) {
				return
			}
		}
		if kind == Lessons && before.Kept && after.FP != "" {
			old, _ := Kept(root, before)
			if sameLessons(old, content) {
				return
			}
		}
		c := Change{Rel: rel, Before: before, After: after}
		if kind == Wiring {
			c.keys = wiringKeys(spec)
		}
		out = append(out, c)
	}
	for _, t := range targets {
		switch t.Kind {
		case StateDir:
			out = append(out, stateWrites(root, t.Rel, s)...)
			continue
		case Program:
			continue // ComparePrograms
		case Mods:
			continue // modsChanges, from the picture's marks
		case Mirrored:
			out = append(out, mirrorChanges(root, t, s)...)
			continue
		case Files:
			for rel, f := range s.Files {
				if f.Kind == Files && under(rel, t.Rel) {
					check(rel, Files, nil)
				}
			}
			out = append(out, filesAdded(root, t.Rel, s)...)
			continue
		}
		check(t.Rel, t.Kind, t.Hooks)
	}
	out = append(out, modsChanges(s, func(rel string, kind Kind) { check(rel, kind, nil) })...)
	for rel, f := range s.Files {
		if f.Kind == Hook {
			check(rel, Hook, nil)
		}
	}
	for _, p := range hookFiles(s.HooksDir) {
		check(relTo(root, p), Hook, nil)
	}
	slices.SortFunc(out, func(a, b Change) int { return strings.Compare(a.Rel, b.Rel) })
	return out
}

// KeptFile returns the content of the watched file rel (root-relative)
// as last copied under Dir, checked against the hash the index keeps.
func KeptFile(root, rel string) ([]byte, bool) {
	f, ok := readIndex(root)[rel]
	if !ok {
		return nil, false
	}
	b, ok := Kept(root, f)
	if !ok {
		return nil, false
	}
	sum := sha256.Sum256(b)
	return b, hex.EncodeToString(sum[:]) == f.Hash
}

// Kept returns the content f had in the picture, from the copy kept under
// Dir; ok is false when no copy was kept (the file was absent, or too big to
// keep).
func Kept(root string, f File) (content []byte, ok bool) {
	if !f.Kept {
		return nil, false
	}
	b, err := osfile.ReadFile(filepath.Join(root, filepath.FromSlash(Dir), f.Hash))
	return b, err == nil
}

// stateWrites lists the files of the state directory dir written since the
// picture (their ctime, which touch cannot set back): each is a change from
// nothing, undone by taking it out unless the caller's Excuse finds a hook
// journaled it.
func stateWrites(root, dir string, s *Snapshot) []Change {
	at := s.At
	if at == 0 {
		return nil
	}
	entries, err := os.ReadDir(abs(root, dir))
	if err != nil {
		return nil
	}
	var out []Change
	for _, e := range entries {
		rel := dir + "/" + e.Name()
		st, err := os.Lstat(abs(root, rel))
		if err != nil || osfile.ChangeTime(st) < at {
			continue
		}
		after, _, _ := look(abs(root, rel), Whole)
		out = append(out, Change{Rel: rel, Before: File{Kind: Whole}, After: after})
	}
	return out
}

// linked reports whether a watched file has more names than at its
// picture: links, its link count now, is above the picture's (both
// known).
func linked(before File, links uint64) bool {
	return before.Links > 0 && links > before.Links
}

// Undo puts each change's picture back, unless excused: the displaced
// version moves to state/undone/ (a file that did not exist before is
// moved there too); the cache is only removed. It returns the changes it
// did not excuse.
func Undo(root string, changes []Change, excused Excuse, now time.Time) []Change {
	var out []Change
	for _, c := range changes {
		if excused != nil && excused(c) {
			continue
		}
		c.Undone, c.Kept, c.Partial, c.Err = undo(root, c, now)
		out = append(out, c)
	}
	return out
}

func undo(root string, c Change, now time.Time) (undone bool, kept string, partial bool, err error) {
	path := abs(root, c.Rel)
	if c.Before.Kind == Cache {
		err := os.Remove(path)
		return err == nil || errors.Is(err, os.ErrNotExist), "", false, nopath(err)
	}
	if c.Before.Kind == Mirrored {
		if c.After.FP != "" {
			if kept, err = displace(root, c.Rel, now); err != nil {
				return false, "", false, err
			}
		}
		return undoMirrored(root, c, kept)
	}
	var content []byte
	if c.Before.FP != "" {
		if !c.Before.Kept {
			return false, "", false, fmt.Errorf("%s: no copy was kept (larger than %d bytes)", c.Rel, maxKept)
		}
		if content, err = osfile.ReadFile(filepath.Join(root, filepath.FromSlash(Dir), c.Before.Hash)); err != nil {
			return false, "", false, err
		}
		if hashBytes(content) != c.Before.Hash {
			return false, "", false, fmt.Errorf("%s: the kept copy was changed", c.Rel)
		}
	}
	wiringOnly := false
	if c.Before.Kind == Wiring && len(c.keys) == 0 {
		c.keys = wiringKeys(nil)
	}
	if c.Before.Kind == Wiring && c.After.FP != "" {
		// Only the wiring goes back; the rest of the file stays as it is
		// now. The displaced version is kept all the same.
		after, _ := osfile.ReadFile(path)
		if c.Before.FP == "" {
			// A new file keeps what is not wiring, if anything.
			if obj, ok := jsonObject(after); ok && len(obj) > countWiring(obj, c.keys) {
				content, wiringOnly = restoreWiring([]byte("{}"), after, c.keys), true
			}
		} else {
			merged := restoreWiring(content, after, c.keys)
			partial = !bytes.Equal(merged, content)
			content = merged
		}
	}
	if c.After.FP != "" {
		if kept, err = displace(root, c.Rel, now); err != nil {
			return false, "", false, err
		}
	}
	if c.Before.FP == "" && !wiringOnly {
		return true, kept, false, nil
	}
	mode := os.FileMode(0o644)
	if c.Before.FP != "" {
		mode = modeOf(c.Before.FP)
	}
	if c.Before.Kind == Lessons && kept != "" {
		// Only the section is put back: the rest of the file is the
		// agent's memory and the person's notes, as the command left it.
		if now, err := osfile.ReadFile(filepath.Join(root, filepath.FromSlash(kept))); err == nil {
			merged := spliceLessons(now, content)
			partial = !bytes.Equal(merged, content)
			content = merged
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return false, kept, partial, err
	}
	return true, kept, partial || wiringOnly, writeAtomic(path, content, mode)
}

// spliceLessons is now with its Lessons Learned section replaced by
// before's (appended when now has none; removed when before had none).
// displace moves the version of rel a change left to state/undone/ and
// returns where it lies, root-relative.
func displace(root, rel string, now time.Time) (string, error) {
	name := now.UTC().Format("20060102T150405.000000000Z") + "-" + strings.NewReplacer("/", "_", string(filepath.Separator), "_").Replace(strings.TrimPrefix(rel, "/"))
	dst := filepath.Join(root, filepath.FromSlash(UndoneDir), name)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", err
	}
	if err := os.Rename(abs(root, rel), dst); err != nil {
		if moveFile(abs(root, rel), dst) != nil {
			return "", err
		}
	}
	return UndoneDir + "/" + name, nil
}

// moveFile moves a regular file where a rename cannot (from the home to a
// workspace on another file system): a copy, then the removal.
func moveFile(src, dst string) error {
	st, err := os.Lstat(src)
	if err == nil && st.Mode()&os.ModeSymlink != 0 {
		to, err := os.Readlink(src)
		if err != nil {
			return err
		}
		if err := os.Symlink(to, dst); err != nil {
			return err
		}
		return os.Remove(src)
	}
	if err != nil || !st.Mode().IsRegular() {
		return errors.New("not a regular file")
	}
	data, err := osfile.ReadFile(src)
	if err != nil {
		return err
	}
	if err := writeAtomic(dst, data, st.Mode().Perm()); err != nil {
		return err
	}
	return os.Remove(src)
}

func spliceLessons(now, before []byte) []byte {
	bs, be, bok := lessonsSection(before)
	ns, ne, nok := lessonsSection(now)
	var section []byte
	if bok {
		section = before[bs:be]
	}
	if !nok {
		ns, ne = len(now), len(now)
		if len(now) > 0 && now[len(now)-1] != '\n' && len(section) > 0 {
			section = append([]byte("\n"), section...)
		}
	}
	out := append([]byte{}, now[:ns]...)
	out = append(out, section...)
	return append(out, now[ne:]...)
}

func nopath(err error) error {
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// modeOf reads the permission bits back from a fingerprint.
func modeOf(fp string) os.FileMode {
	i := strings.LastIndexByte(fp, ':')
	m, err := strconv.ParseUint(fp[i+1:], 8, 32)
	if i < 0 || err != nil {
		return 0o644
	}
	return os.FileMode(m).Perm()
}

// LedgerIntact reports whether the legacy ledger is as it was at the
// snapshot: hooks write segments, so nothing appends to it during a
// command. Its size and the bytes before its end are compared.
func LedgerIntact(root string, s *Snapshot) bool {
	size, tail := tailMark(root, Ledger, -1)
	return size == s.LedgerSize && tail == s.LedgerTail
}

// riskyPrefixes are the git config keys that make git run a program or
// read another file: a change to them is a change to the rules.
var riskyPrefixes = []string{"core.hookspath", "core.fsmonitor", "core.pager", "core.editor", "core.sshcommand", "core.askpass", "diff.external", "filter.", "alias.", "include.", "includeif.", "sequence.editor", "gpg.program", "credential.helper", "core.excludesfile", "core.attributesfile", "merge.", "diff."}

// RiskyKeys lists the risky "section.key=value" entries of a git config
// file, sorted. diff.* and merge.* count only for driver commands.
func RiskyKeys(config []byte) []string {
	var out []string
	section := ""
	for _, line := range bytes.Split(config, []byte("\n")) {
		l := strings.TrimSpace(string(line))
		if l == "" || l[0] == '#' || l[0] == ';' {
			continue
		}
		if l[0] == '[' {
			end := strings.IndexByte(l, ']')
			if end < 0 {
				continue
			}
			head := l[1:end]
			name, sub, hasSub := strings.Cut(head, " ")
			section = strings.ToLower(name)
			if hasSub {
				section += "." + strings.Trim(strings.TrimSpace(sub), `"`)
			} else if i := strings.IndexByte(name, '.'); i >= 0 { // [section.sub]
				section = strings.ToLower(name[:i]) + "." + name[i+1:]
			}
			l = strings.TrimSpace(l[end+1:])
			if l == "" {
				continue
			}
		}
		k, v, _ := strings.Cut(l, "=")
		key := section + "." + strings.ToLower(strings.TrimSpace(k))
		if risky(key) {
			out = append(out, key+"="+strings.TrimSpace(v))
		}
	}
	slices.Sort(out)
	return out
}

func risky(key string) bool {
	for _, p := range riskyPrefixes {
		if !strings.HasPrefix(key, p) {
			continue
		}
		if p == "merge." || p == "diff." {
			return strings.HasSuffix(key, ".driver") || strings.HasSuffix(key, ".command") || strings.HasSuffix(key, ".textconv")
		}
		return true
	}
	return false
}
