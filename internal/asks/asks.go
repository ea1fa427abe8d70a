// Package asks holds pending asks (.orchestration/state/asks/): a decision
// of ask that, with ask.via: wait, waits for a person's answer instead of
// the host's prompt. One file per ask, <id>.json, written by the hook that
// waits; one file per answer, <id>.answer, written by a person's intenthook
// ask. The hook polls for the answer holding no lock, and removes both
// files when it stops waiting. Every write and removal is journaled: the
// directory is a governance row the guard watches (a change an agent's
// command made is put back at its post). It decides nothing: what an ask
// is about, and what an answer does, are the gate's.
package asks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/randid"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/state"
)

// Dir is the asks' directory of a workspace outside git, relative to its
// root. In a git repository the asks live under the common git directory
// (CommonDir), one directory for all its work trees.
const Dir = state.StateDir + "/asks"

// CommonDir is the asks' directory in a git repository, relative to the
// common git directory: a person answers from any work tree an ask filed
// in another.
const CommonDir = "intenthook/asks"

// CommonJournal is the journal of the writes to CommonDir, relative to the
// common git directory.
const CommonJournal = "intenthook/journal"

// Verdicts of an answer.
const (
	Allow = "allow"
	Deny  = "deny"
)

// Ask is one pending ask: what a person is asked about, by whom, until
// when. Session, Agent, Tool, Target and Why come from the agent's call
// and the gate's decision: a person's terminal shows them quoted, the
// agent's text fenced.
type Ask struct {
	ID        string    `json:"id"`
	Session   string    `json:"session"`
	Agent     string    `json:"agent,omitempty"`    // the agent's name (claude, codex, …)
	AgentID   string    `json:"agent_id,omitempty"` // a subagent's id
	Intent    string    `json:"intent,omitempty"`
	Tool      string    `json:"tool"`
	ToolUseID string    `json:"tool_use_id,omitempty"`
	Target    string    `json:"target,omitempty"` // the files, or the command
	Code      string    `json:"code,omitempty"`   // the decision's code, if it has one
	Why       string    `json:"why"`              // the decision's message: headline, why, evidence
	Created   time.Time `json:"created"`
	Deadline  time.Time `json:"deadline"` // after it the hook no longer waits
	PID       int       `json:"pid,omitempty"`
	// WorkTree is the workspace root of the work tree the call was made
	// in: the repository's work trees share the asks, and the answer is
	// recorded in that work tree's ledger.
	WorkTree string `json:"work_tree,omitempty"`
	// ScopeRequest is the number of the scope request the ask is about
	// (Code CodeScopeRequest): an answer approves or rejects it.
	ScopeRequest int `json:"scope_request,omitempty"`
}

// CodeScopeRequest is what an ask about an agent's scope request is
// about: intenthook-mcp's request_scope_change waits, with ask.via wait
// or console, for a person to approve or reject it.
const CodeScopeRequest = "scope_request"

// Answer is a person's answer to an ask, and who gave it: an attribution
// (the git identity and OS user of the process that wrote it), not an
// authentication.
type Answer struct {
	Verdict string    `json:"verdict"` // allow, deny
	Reason  string    `json:"reason,omitempty"`
	By      string    `json:"by,omitempty"`   // git's user.name <user.email>
	User    string    `json:"user,omitempty"` // the OS user
	Via     string    `json:"via,omitempty"`  // where it was given: console; "" for intenthook ask
	At      time.Time `json:"at"`
}

// Who names who answered, as the answer says: an attribution, not an
// authentication.
func (ans Answer) Who() string {
	who := safetext.OneLine(ans.By)
	if ans.User != "" {
		if who != "" {
			who += ", "
		}
		who += "OS user " + safetext.OneLine(ans.User)
	}
	if who == "" {
		return "a person"
	}
	return who
}

// Store is one repository's asks: under its common git directory, shared
// by its work trees, or a workspace's own outside git. Each write is
// journaled in the journal that lives beside the asks (the repository's,
// or the work tree's), and an answer is believed only with its line.
type Store struct {
	Root    string // the workspace root of the work tree looking
	dir     string // the asks' directory, absolute
	journal string // the journal naming the asks' writes, absolute
	prefix  string // the asks' names in that journal, before the file's
}

// For resolves the asks of the repository holding the workspace root: one
// read of a linked work tree's .git file and its commondir, no git process.
func For(root string) Store {
	abs, err := filepath.Abs(root)
	if err != nil {
		abs = root
	}
	if common, ok := git.CommonDir(abs); ok {
		return Store{Root: abs, dir: filepath.Join(common, filepath.FromSlash(CommonDir)), journal: filepath.Join(common, filepath.FromSlash(CommonJournal)), prefix: "asks/"}
	}
	return Store{Root: abs, dir: filepath.Join(abs, filepath.FromSlash(Dir)), journal: guard.JournalPath(abs), prefix: Dir + "/"}
}

// ErrNoAsk says no pending ask has the id.
var ErrNoAsk = errors.New("no pending ask")

// Dir is the asks' directory, absolute.
func (s Store) Dir() string { return s.dir }

func (s Store) path(id, ext string) string { return filepath.Join(s.dir, id+ext) }

func (s Store) rel(id, ext string) string { return s.prefix + id + ext }

// journalAdd notes that content was written to the ask file id+ext, by
// the call by names ("" for a person's command).
func (s Store) journalAdd(id, ext string, content []byte, by string) {
	guard.JournalFileBy(s.journal, s.rel(id, ext), content, by)
}

// journalRemove notes that the ask file id+ext was removed.
func (s Store) journalRemove(id, ext string) { guard.JournalFileRemoved(s.journal, s.rel(id, ext)) }

// journaled reports whether the ask file id+ext was written as data.
func (s Store) journaled(id, ext string, data []byte) bool {
	return guard.JournaledFile(s.journal, s.rel(id, ext), guard.Hash(data))
}

// Wrote reports whether the file at path (absolute), in the asks'
// directory, was last written with the content hash (guard.RemovedHash
// for a removal) by a writer that journals: a hook or person of any work
// tree. It is the guard's excuse for a change it finds there.
func (s Store) Wrote(path, hash string) bool {
	name, err := filepath.Rel(s.dir, path)
	if err != nil || name == "." || strings.ContainsAny(filepath.ToSlash(name), "/") {
		return false
	}
	return guard.JournaledFile(s.journal, s.prefix+name, hash)
}

// ensure makes the asks' directory.
func (s Store) ensure() error { return os.MkdirAll(s.dir, 0o755) }

// validID is the shape of an id Open gives: a person types it, and it
// names a file.
func newID() string { return randid.Hex(4) }

func validID(id string) bool {
	if len(id) != 8 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// Open files a as a pending ask under a new id, journaled under by (the
// waiting hook's call, guard.By), and returns it with its id.
func (s Store) Open(a Ask, by string) (Ask, error) {
	a.ID = newID()
	data, err := json.Marshal(a)
	if err != nil {
		return a, err
	}
	if err := s.ensure(); err != nil {
		return a, err
	}
	s.sweep(a.Created)
	// Journaled first: the guard of a command running meanwhile may look
	// as soon as the file is written.
	s.journalAdd(a.ID, ".json", data, by)
	if err := state.WriteFile(s.path(a.ID, ".json"), data, 0o644, false); err != nil {
		return a, fmt.Errorf("pending ask: %w", err)
	}
	return a, nil
}

// Close removes the ask and its answer, journaled: the hook stopped
// waiting.
func (s Store) Close(id string) {
	for _, ext := range []string{".answer", ".json"} {
		if _, err := os.Lstat(s.path(id, ext)); err == nil {
			s.journalRemove(id, ext)
			_ = os.Remove(s.path(id, ext))
		}
	}
}

// Lapse notes that a went unanswered, journaled under by: the host's own
// question about the same call, which follows at once where the host has
// a prompt (Claude Code's PermissionRequest), then does not wait again
// (TakeLapsed).
func (s Store) Lapse(a Ask, by string) {
	data, err := json.Marshal(a)
	if err != nil {
		return
	}
	s.journalAdd(a.ID, ".lapsed", data, by)
	_ = state.WriteFile(s.path(a.ID, ".lapsed"), data, 0o644, false)
}

// LapseWindow is how long after its deadline a lapsed ask stands for the
// host's question that follows it.
const LapseWindow = time.Minute

// TakeLapsed reports whether an ask of session about tool and target
// lapsed within LapseWindow of now, and removes it; older notes are
// removed on the way.
func (s Store) TakeLapsed(session, tool, target string, now time.Time) bool {
	entries, _ := os.ReadDir(s.dir)
	found := false
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".lapsed")
		if !ok || !validID(id) || !e.Type().IsRegular() {
			continue
		}
		data, err := osfile.ReadFile(s.path(id, ".lapsed"))
		var a Ask
		if err != nil || !s.journaled(id, ".lapsed", data) || json.Unmarshal(data, &a) != nil {
			continue
		}
		match := !found && session != "" && a.Session == session && a.Tool == tool && a.Target == target
		if stale := now.After(a.Deadline.Add(LapseWindow)); match || stale {
			s.journalRemove(id, ".lapsed")
			_ = os.Remove(s.path(id, ".lapsed"))
			found = found || match && !stale
		}
	}
	return found
}

// sweep removes the asks past their deadline at now (their hooks were
// stopped by the host before they could close them) and the lapsed notes
// past their window.
func (s Store) sweep(now time.Time) {
	entries, _ := os.ReadDir(s.dir)
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !validID(id) {
			continue
		}
		if a, err := s.load(id); err == nil && !now.Before(a.Deadline) {
			s.Close(id)
		}
	}
	s.TakeLapsed("", "", "", now) // matches none: removes the old notes
}

// Poll is how often a waiting hook looks for an answer: a stat of one
// file, no lock, no read until it is there.
const Poll = 150 * time.Millisecond

// Wait waits for the answer to a until its deadline (or ctx's end),
// looking every poll, and returns it; ok is false when none came in time,
// or the ask was taken away. An answer is believed when the journal names
// its content as written (a person's intenthook ask journals it; a write
// an agent's command made by hand does not, and is put back at the
// command's post). now and sleep are the clock's.
func (s Store) Wait(ctx context.Context, a Ask, poll time.Duration, now func() time.Time, sleep func(time.Duration)) (Answer, bool) {
	answer, ask := s.path(a.ID, ".answer"), s.path(a.ID, ".json")
	for {
		if _, err := os.Stat(answer); err == nil {
			if ans, ok := s.read(a.ID); ok {
				return ans, true
			}
		}
		if _, err := os.Stat(ask); err != nil {
			return Answer{}, false
		}
		left := a.Deadline.Sub(now())
		if left <= 0 || ctx.Err() != nil {
			return Answer{}, false
		}
		sleep(min(poll, left))
	}
}

// read reads id's answer, when it is one a person's command journaled.
func (s Store) read(id string) (Answer, bool) {
	data, err := osfile.ReadFile(s.path(id, ".answer"))
	if err != nil || !s.journaled(id, ".answer", data) {
		return Answer{}, false
	}
	var ans Answer
	if json.Unmarshal(data, &ans) != nil || (ans.Verdict != Allow && ans.Verdict != Deny) {
		return Answer{}, false
	}
	return ans, true
}

// Get returns the pending ask id: filed, unanswered, before its deadline.
func (s Store) Get(id string, now time.Time) (Ask, error) {
	if !validID(id) {
		return Ask{}, fmt.Errorf("%w %q: an id is 8 hexadecimal digits, as intenthook ask lists them", ErrNoAsk, id)
	}
	a, err := s.load(id)
	if err != nil {
		return Ask{}, fmt.Errorf("%w %s", ErrNoAsk, id)
	}
	if _, err := os.Lstat(s.path(id, ".answer")); err == nil {
		return a, fmt.Errorf("ask %s is answered already", id)
	}
	if !now.Before(a.Deadline) {
		return a, fmt.Errorf("ask %s timed out at %s: the hook no longer waits for it", id, a.Deadline.UTC().Format(time.RFC3339))
	}
	return a, nil
}

func (s Store) load(id string) (Ask, error) {
	data, err := osfile.ReadFile(s.path(id, ".json"))
	if err != nil {
		return Ask{}, err
	}
	var a Ask
	if err := json.Unmarshal(data, &a); err != nil {
		return Ask{}, err
	}
	if a.ID != id {
		return Ask{}, fmt.Errorf("ask file %s names ask %q", id, a.ID)
	}
	return a, nil
}

// Answer writes the answer to the pending ask id, journaled as a person's
// command's write (no call), atomically: the waiting hook reads it whole
// or not at all.
func (s Store) Answer(id string, ans Answer, now time.Time) (Ask, error) {
	a, err := s.Get(id, now)
	if err != nil {
		return a, err
	}
	data, err := json.Marshal(ans)
	if err != nil {
		return a, err
	}
	s.journalAdd(id, ".answer", data, "")
	if err := state.WriteFile(s.path(id, ".answer"), data, 0o644, false); err != nil {
		return a, fmt.Errorf("answer ask %s: %w", id, err)
	}
	return a, nil
}

// Pending lists the pending asks, oldest first: filed, unanswered, before
// their deadline. A workspace that never waited has no directory: nothing
// is read.
func (s Store) Pending(now time.Time) ([]Ask, error) {
	entries, err := os.ReadDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Ask
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !validID(id) {
			continue
		}
		if a, err := s.Get(id, now); err == nil {
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(x, y Ask) int { return x.Created.Compare(y.Created) })
	return out, nil
}

// Record is what an ask_answer ledger record holds of the answer (its
// answer field): the ask, who answered, and how long the ask waited.
type Record struct {
	Ask      string    `json:"ask"`
	By       string    `json:"by,omitempty"`
	User     string    `json:"user,omitempty"`
	Via      string    `json:"via,omitempty"` // console, for an answer given there
	Asked    time.Time `json:"asked"`
	WaitedMS int64     `json:"waited_ms"`
	// A standing answer's: what it allows, and until when.
	Code  string     `json:"code,omitempty"`
	Until *time.Time `json:"until,omitempty"`
}

// Waited says how long the ask waited, as a person reads it: to the
// second, or to 10 ms below one.
func (r Record) Waited() string {
	d := time.Duration(r.WaitedMS) * time.Millisecond
	if d < time.Second {
		return d.Round(10 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// RecordOfGrant is the ledger's account of a standing answer: the
// grant's id stands for the ask's, and nothing waited.
func RecordOfGrant(g Grant) Record {
	until := g.Until
	return Record{Ask: g.ID, By: g.By, User: g.User, Asked: g.At, Code: g.Code, Until: &until}
}

// RecordOf is the ledger's account of ans, given to a at its time.
func RecordOf(a Ask, ans Answer) Record {
	return Record{Ask: a.ID, By: ans.By, User: ans.User, Via: ans.Via, Asked: a.Created, WaitedMS: max(ans.At.Sub(a.Created).Milliseconds(), 0)}
}

// Grant is a person's standing answer: one session's calls asked about for
// one code are allowed until a time, with no ask filed. It is stored as
// grant-<id>.json beside the asks, journaled as a person's command's write,
// and believed only with its journal line, as an answer is.
type Grant struct {
	ID      string    `json:"id"`
	Session string    `json:"session"`
	Code    string    `json:"code"` // what the asks are about (destructive_command, …)
	Until   time.Time `json:"until"`
	By      string    `json:"by,omitempty"`
	User    string    `json:"user,omitempty"`
	At      time.Time `json:"at"`
}

const grantPrefix = "grant-"

// MaxGrant is the longest a standing answer may last.
const MaxGrant = 24 * time.Hour

// Grant files g under a new id and returns it with its id. Grants past
// their time are removed on the way.
func (s Store) Grant(g Grant) (Grant, error) {
	g.ID = randid.Hex(4)
	data, err := json.Marshal(g)
	if err != nil {
		return g, err
	}
	if err := s.ensure(); err != nil {
		return g, err
	}
	for _, old := range s.grants() {
		if !g.At.Before(old.Until) {
			s.journalRemove(grantPrefix+old.ID, ".json")
			_ = os.Remove(s.path(grantPrefix+old.ID, ".json"))
		}
	}
	s.journalAdd(grantPrefix+g.ID, ".json", data, "")
	if err := state.WriteFile(s.path(grantPrefix+g.ID, ".json"), data, 0o644, false); err != nil {
		return g, fmt.Errorf("standing answer: %w", err)
	}
	return g, nil
}

// Granted returns a standing answer that allows session's asks of code at
// now. It reads the directory only when asked: an ask is rare.
func (s Store) Granted(session, code string, now time.Time) (Grant, bool) {
	if session == "" || code == "" {
		return Grant{}, false
	}
	for _, g := range s.grants() {
		if g.Session == session && g.Code == code && now.Before(g.Until) {
			return g, true
		}
	}
	return Grant{}, false
}

// Grants lists the standing answers in force at now, oldest first.
func (s Store) Grants(now time.Time) []Grant {
	var out []Grant
	for _, g := range s.grants() {
		if now.Before(g.Until) {
			out = append(out, g)
		}
	}
	slices.SortFunc(out, func(x, y Grant) int { return x.At.Compare(y.At) })
	return out
}

// grants reads every standing answer a person's command journaled; a file
// written by other means is skipped.
func (s Store) grants() []Grant {
	entries, _ := os.ReadDir(s.dir)
	var out []Grant
	for _, e := range entries {
		id, ok := strings.CutPrefix(e.Name(), grantPrefix)
		if !ok {
			continue
		}
		if id, ok = strings.CutSuffix(id, ".json"); !ok || !validID(id) || !e.Type().IsRegular() {
			continue
		}
		data, err := osfile.ReadFile(s.path(grantPrefix+id, ".json"))
		if err != nil || !s.journaled(grantPrefix+id, ".json", data) {
			continue
		}
		var g Grant
		if json.Unmarshal(data, &g) != nil || g.ID != id {
			continue
		}
		out = append(out, g)
	}
	return out
}

// Notified is how the last message of a person's notifier (intenthook ask
// serve-notify, the console) went: doctor says so.
type Notified struct {
	At    time.Time `json:"at"`
	Ask   string    `json:"ask"`
	Error string    `json:"error,omitempty"` // "" when it was delivered
}

const notifiedName = "notify"

// NoteNotified keeps n, journaled as a person's command's write.
func (s Store) NoteNotified(n Notified) error {
	data, err := json.Marshal(n)
	if err != nil {
		return err
	}
	if err := s.ensure(); err != nil {
		return err
	}
	s.journalAdd(notifiedName, ".json", data, "")
	return state.WriteFile(s.path(notifiedName, ".json"), data, 0o644, false)
}

// LastNotified returns the notifier's last note, believed only with its
// journal line.
func (s Store) LastNotified() (Notified, bool) {
	data, err := osfile.ReadFile(s.path(notifiedName, ".json"))
	if err != nil || !s.journaled(notifiedName, ".json", data) {
		return Notified{}, false
	}
	var n Notified
	return n, json.Unmarshal(data, &n) == nil
}
