// Package review holds the machine state of intents that require review
// (review: required), under .orchestration/state/reviews/: the submissions
// the hook saw an agent make, waiting for the `intenthook submit` command
// that follows, and a person's rejections waiting to reach the sessions
// that worked on the intent. It holds the one rule of a submission
// (Submittable) and the flows that end an intent's work by its acceptance
// checks: an agent's submission (SubmitIntent, Submit) and a person's
// verification (Verify). The catalog edits they lead to are package
// lifecycle's.
package review

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

	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/workspace"
)

// dir is the reviews' directory under state/; inbox holds one file per
// session with what a person said to it.
const (
	dir   = "reviews"
	inbox = "inbox"
	lock  = "reviews"
)

// RequestTTL is how long a submission the hook saw waits for its command.
const RequestTTL = 10 * time.Minute

// Request is a submission the hook saw: the shell call (or MCP tool call)
// that will run `intenthook submit`.
type Request struct {
	Intent    string    `json:"intent"`
	Session   string    `json:"session"`
	Agent     string    `json:"agent,omitempty"`
	Model     string    `json:"model,omitempty"`
	ToolUseID string    `json:"tool_use_id"`
	At        time.Time `json:"at"`
	// Result is, on a submission handed to the hook after its command,
	// what was done under the intent as the command recounted it from the
	// ledger (summary.Gather): the hook reads no ledger.
	Result json.RawMessage `json:"result,omitempty"`
}

// file is one intent's review state.
type file struct {
	Requests []Request `json:"requests,omitempty"`
	// Passed are submissions whose checks passed in a shell that could not
	// write the catalog (an OS sandbox keeps it read-only there): the
	// hook after the command moves the intent to IN_REVIEW.
	Passed []Request `json:"passed,omitempty"`
	// Sessions are those that submitted the intent: they worked on it.
	Sessions []string `json:"sessions,omitempty"`
	// Rejection is the last rejection's reason, shown with the intent's
	// context to whoever takes the work up, until it is submitted again.
	Rejection *Note `json:"rejection,omitempty"`
}

// Note is a person's words for a session: a rejection's reason. It names
// the ledger's reject record it comes from (Record, the record's id, and
// where its line ends: Segment, End); the reason shown is that record's,
// never the note's own text, which a program could have written.
type Note struct {
	Intent  string    `json:"intent"`
	Reason  string    `json:"reason"`
	At      time.Time `json:"at"`
	Record  string    `json:"record,omitempty"`
	Segment string    `json:"segment,omitempty"`
	End     int64     `json:"end,omitempty"`
}

// Recorded is n's reason as the ledger's reject record it names holds it:
// a person's record (no session) rejecting n's intent, read where the note
// says its line ends (one line read, however long the ledger). ok is false
// for a note that names no such record: a note planted under state/, or
// one whose record was spooled and not yet appended.
func (s Store) Recorded(n Note) (reason string, ok bool) {
	if n.Record == "" {
		return "", false
	}
	rec, ok := ledger.RecordAt(s.Root, n.Segment, n.End)
	if !ok || rec.ID != n.Record {
		return "", false
	}
	m := &rec.Metadata.Intenthook
	if m.Event != ledger.EventReject || string(m.IntentID) != n.Intent || m.SessionID != "" || strings.TrimSpace(m.Reason) == "" {
		return "", false
	}
	return m.Reason, true
}

// Store is one workspace's review state.
type Store struct {
	Root        string
	LockTimeout time.Duration
}

// NewStore is ws's review state.
func NewStore(ws *workspace.Workspace) Store {
	return Store{Root: ws.Root, LockTimeout: ws.Config.LockTimeout}
}

// Rejected is the reason a person gave when they last rejected in's
// submission, while in is back IN_PROGRESS and not yet submitted again,
// for the contexts in's sessions get (workspace.IntentContext); "" otherwise.
// The reason is the ledger's reject record's (Recorded): "" when the
// review state names none.
// Only intents that require review look for one.
func Rejected(ws *workspace.Workspace, in *intents.Intent) string {
	if in.Status != intents.InProgress || !in.NeedsReview(ws.Config.Review.Default) {
		return ""
	}
	store := NewStore(ws)
	if n := store.Rejection(in.ID); n != nil {
		reason, _ := store.Recorded(*n)
		return reason
	}
	return ""
}

func (s Store) path(intent string) string {
	return state.Path(s.Root, dir, state.Key(intent)+".json")
}

// journal notes the content a write gave the file at p for the guard: the
// review state is a governance row the guard watches file by file
// (guard.Files), and every write here is journaled (the hooks', submit's,
// a person's reject's).
func (s Store) journal(p string, content []byte) {
	if rel, err := filepath.Rel(s.Root, p); err == nil {
		guard.Journal(s.Root, filepath.ToSlash(rel), content)
	}
}

// update changes intent's file under the reviews lock.
func (s Store) update(ctx context.Context, intent string, fn func(*file) error) error {
	if err := state.Ensure(s.Root, dir, filepath.Join(dir, inbox)); err != nil {
		return err
	}
	unlock, err := state.Lock(ctx, s.Root, lock, s.LockTimeout)
	if err != nil {
		return err
	}
	defer unlock()
	var f file
	data, err := os.ReadFile(s.path(intent))
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	default:
		// A damaged file holds nothing worth keeping: requests are
		// minutes old at most, and sessions are made again by the next
		// submission.
		_ = json.Unmarshal(data, &f)
	}
	if err := fn(&f); err != nil {
		return err
	}
	out, err := json.Marshal(f)
	if err != nil {
		return err
	}
	// Journaled first: the guard of a command running meanwhile may look
	// as soon as the file is written.
	s.journal(s.path(intent), out)
	return state.WriteFile(s.path(intent), out, 0o644, false)
}

// fresh drops the requests older than RequestTTL at now.
func fresh(rs []Request, now time.Time) []Request {
	return slices.DeleteFunc(rs, func(x Request) bool { return now.Sub(x.At) > RequestTTL })
}

// Request records a submission the hook saw, dropping stale ones.
func (s Store) Request(ctx context.Context, r Request) error {
	return s.update(ctx, r.Intent, func(f *file) error {
		f.Requests = append(fresh(f.Requests, r.At), r)
		return nil
	})
}

// ErrNoRequest says the command found no submission the hook saw.
var ErrNoRequest = errors.New("no submission seen by the hook")

// Take uses up the oldest fresh submission of intent and returns it; the
// session that made it is remembered as one that worked on the intent.
func (s Store) Take(ctx context.Context, intent string, now time.Time) (Request, error) {
	var got Request
	err := s.update(ctx, intent, func(f *file) error {
		f.Requests = fresh(f.Requests, now)
		if len(f.Requests) == 0 {
			return ErrNoRequest
		}
		got, f.Requests = f.Requests[0], f.Requests[1:]
		f.Rejection = nil
		if got.Session != "" && !slices.Contains(f.Sessions, got.Session) {
			f.Sessions = append(f.Sessions, got.Session)
		}
		return nil
	})
	return got, err
}

// Hand leaves a submission whose checks passed for the hook that follows
// its command (the call r.ToolUseID's) to move the intent to IN_REVIEW.
func (s Store) Hand(ctx context.Context, r Request) error {
	return s.update(ctx, r.Intent, func(f *file) error {
		f.Passed = append(fresh(f.Passed, r.At), r)
		return nil
	})
}

// TakeHanded uses up the submission of intent handed to the call
// toolUseID, if a fresh one is there.
func (s Store) TakeHanded(ctx context.Context, intent, toolUseID string, now time.Time) (Request, bool, error) {
	var got Request
	found := false
	if _, err := os.Stat(s.path(intent)); err != nil {
		return got, false, nil
	}
	err := s.update(ctx, intent, func(f *file) error {
		f.Passed = fresh(f.Passed, now)
		if i := slices.IndexFunc(f.Passed, func(x Request) bool { return x.ToolUseID == toolUseID }); i >= 0 && toolUseID != "" {
			got, found = f.Passed[i], true
			f.Passed = slices.Delete(f.Passed, i, i+1)
		}
		return nil
	})
	return got, found, err
}

// Reject keeps n as intent's last rejection.
func (s Store) Reject(ctx context.Context, n Note) error {
	return s.update(ctx, n.Intent, func(f *file) error {
		f.Rejection = &n
		return nil
	})
}

// Rejection is intent's last rejection not yet answered by a submission,
// or nil.
func (s Store) Rejection(intent string) *Note {
	var f file
	if data, err := os.ReadFile(s.path(intent)); err == nil {
		_ = json.Unmarshal(data, &f)
	}
	return f.Rejection
}

// Sessions names the sessions that submitted intent.
func (s Store) Sessions(intent string) []string {
	var f file
	if data, err := os.ReadFile(s.path(intent)); err == nil {
		_ = json.Unmarshal(data, &f)
	}
	return f.Sessions
}

// Tell leaves n for each session, for its next context.
func (s Store) Tell(ctx context.Context, sessions []string, n Note) error {
	if err := state.Ensure(s.Root, dir, filepath.Join(dir, inbox)); err != nil {
		return err
	}
	line, err := json.Marshal(n)
	if err != nil {
		return err
	}
	var errs []error
	for _, id := range sessions {
		p := state.Path(s.Root, dir, inbox, state.Key(id))
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		_, err = f.Write(append(line, '\n'))
		errs = append(errs, err, f.Close())
		if all, err := os.ReadFile(p); err == nil {
			s.journal(p, all)
		}
	}
	return errors.Join(errs...)
}

// Inbox takes the notes left for session, once: the file is renamed away
// before it is read, so two contexts never both deliver it. Only notes
// whose reject record the ledger holds are returned, each with that
// record's reason (Recorded).
func (s Store) Inbox(session string) ([]Note, error) {
	if session == "" {
		return nil, nil
	}
	p := state.Path(s.Root, dir, inbox, state.Key(session))
	// Taken out of the watched directory: the guard of a command running
	// meanwhile would take a file added there out.
	taken := state.Path(s.Root, fmt.Sprintf("inbox-%s.taken-%d", state.Key(session), os.Getpid()))
	if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if rel, err := filepath.Rel(s.Root, p); err == nil {
		guard.JournalRemoved(s.Root, filepath.ToSlash(rel))
	}
	if err := os.Rename(p, taken); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	data, err := os.ReadFile(taken)
	os.Remove(taken)
	if err != nil {
		return nil, err
	}
	var out []Note
	for _, l := range strings.Split(string(data), "\n") {
		var n Note
		if l == "" || json.Unmarshal([]byte(l), &n) != nil {
			continue
		}
		if reason, ok := s.Recorded(n); ok {
			n.Reason = reason
			out = append(out, n)
		}
	}
	return out, nil
}
