// Package lifecycle changes intents in the catalog file: status transitions
// under the state machine of SPEC §2 and scope amendments. Each change
// rewrites only the keys it changes (intents/splice), atomically and under
// the catalog lock, and is recorded in the ledger. Deciding whether an agent
// may change an intent is not its business: the gate and the CLI decide.
package lifecycle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/glob"
	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/intents/splice"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/summary"
	"github.com/intenthook/intenthook/internal/workspace"
)

// ErrNeedsVerify refuses a transition to COMPLETE that neither passed
// `intents verify` nor was forced with a reason.
var ErrNeedsVerify = errors.New("COMPLETE only through `intenthook intents verify`, or with --force --reason")

// ErrNeedsReview refuses to complete an intent that requires review
// without a person's approval (or a forced transition with a reason).
var ErrNeedsReview = errors.New("the intent requires review: it is submitted (`intenthook submit`, checks passing, -> IN_REVIEW) and completed by a person's `intenthook intents approve`, or with --force --reason")

// Editor changes one workspace's catalog.
type Editor struct {
	Root        string
	LockTimeout time.Duration
	Now         func() time.Time
	Ledger      *ledger.Ledger
	// Session and Tool name who made the change in its ledger record.
	Session, Tool string
	// ReviewDefault is config.yaml's review.default: whether intents that
	// do not say require review.
	ReviewDefault string
	// Hook marks an editor run by a hook process: its writes are journaled
	// for the guard (package guard), which otherwise undoes a catalog
	// change made while an agent's shell command ran.
	Hook bool
	// ToolUse is the tool call whose hook runs the editor, named in the
	// journal with Session.
	ToolUse string
}

// NewEditor is an editor of ws's catalog on behalf of session (empty for a
// person) using tool (the agent's tool, or "intenthook"); toolVersion is
// stamped on its ledger records.
func NewEditor(ws *workspace.Workspace, session, tool, toolVersion string) *Editor {
	return &Editor{Root: ws.Root, LockTimeout: ws.Config.LockTimeout, Now: ws.Now, Ledger: ws.Ledger(toolVersion), Session: session, Tool: tool, ReviewDefault: ws.Config.Review.Default}
}

// Transition is one requested status change.
type Transition struct {
	ID     string
	To     intents.Status
	Reason string
	// Verified is set by `intents verify` when every criterion passed;
	// Force lets a person complete without it (a reason is required).
	Verified, Force bool
	// Submitted is an agent's submission whose checks passed (-> IN_REVIEW);
	// Approved a person's approval of a reviewed intent (-> COMPLETE).
	// Rejected is a person's rejection of a reviewed intent (-> IN_PROGRESS,
	// with a Reason).
	Submitted, Approved, Rejected bool
	// From, when set, must be the intent's current status: a selection
	// starts only a PENDING intent, and does nothing if another process
	// started it first.
	From intents.Status
	// Result, for a move to IN_REVIEW or COMPLETE, is what was done under
	// the intent as the command that asked for the move gathered it from
	// the ledger (summary.Gather): a hook making the move is handed it, and
	// reads no ledger. Gathered by Apply when nil.
	Result json.RawMessage
	// Answer, on a person's approval or rejection, is who gave it: a JSON
	// object (by, user, via), the record's answer.
	Answer json.RawMessage
}

// Apply performs t and returns the status the intent had. With t.From set
// and the intent already past it, Apply changes nothing and returns the
// current status.
func (e *Editor) Apply(ctx context.Context, t Transition) (intents.Status, error) {
	if t.To == intents.Complete && !t.Verified && !t.Approved && !(t.Force && t.Reason != "") {
		return "", ErrNeedsVerify
	}
	var from intents.Status
	err := e.edit(ctx, t.ID, func(data []byte, c *intents.Catalog, in *intents.Intent) ([]byte, error) {
		from = in.Status
		if t.From != "" && in.Status != t.From {
			return nil, nil
		}
		if t.Approved && in.Status != intents.InReview {
			return nil, fmt.Errorf("%s is %s: only an IN_REVIEW intent is approved", in.ID, in.Status)
		}
		if err := intents.CheckTransition(in.Status, t.To); err != nil {
			return nil, err
		}
		if err := e.checkReview(in, t); err != nil {
			return nil, err
		}
		if t.To == intents.InProgress && in.Status == intents.Pending {
			if open := openDependencies(c, in); len(open) > 0 {
				return nil, fmt.Errorf("%s cannot start: depends_on must be COMPLETE first: %s", in.ID, strings.Join(open, ", "))
			}
		}
		if t.To == intents.Complete {
			if open := openChildren(c, in); len(open) > 0 {
				return nil, fmt.Errorf("%s cannot be COMPLETE while its children are not: %s (complete or archive them first)", in.ID, strings.Join(open, ", "))
			}
		}
		out, err := splice.SetStatus(data, t.ID, string(t.To), e.now())
		if err != nil || t.To != intents.Complete {
			return out, err
		}
		// completed_at tells a finished intent from an abandoned one once
		// both are ARCHIVED: only the finished one satisfies depends_on.
		return splice.SetTimes(out, t.ID, []splice.Stamp{{Key: "completed_at", At: e.now()}})
	})
	if err != nil || (t.From != "" && from != t.From) {
		return from, err
	}
	r := e.record(ledger.EventTransition, t.ID)
	m := &r.Metadata.Intenthook
	m.From, m.To, m.Reason = string(from), string(t.To), t.Reason
	if t.To == intents.Complete || t.To == intents.InReview {
		// What was done, recounted from the ledger: a result that cannot
		// be gathered leaves the transition standing without one.
		m.Result = t.Result
		if m.Result == nil {
			m.Result, _ = summary.Gather(e.Root, t.ID, e.now())
		}
	}
	switch {
	case t.Submitted:
		m.Event, m.Success = ledger.EventSubmit, true
	case t.Approved:
		m.Event, m.Answer = ledger.EventApprove, t.Answer
	case t.Rejected:
		m.Event, m.Answer = ledger.EventReject, t.Answer
	case t.Verified:
		m.Event = ledger.EventVerify
	}
	return from, e.Ledger.Append(ctx, r)
}

// checkReview holds the review rows of the state machine: an intent that
// requires review reaches COMPLETE only from IN_REVIEW through a person's
// approval (or a person's forced transition); IN_REVIEW is reached only by
// a submission whose checks passed, and left for IN_PROGRESS only with the
// rejection's reason.
func (e *Editor) checkReview(in *intents.Intent, t Transition) error {
	review := in.NeedsReview(e.ReviewDefault)
	switch {
	case t.To == intents.InReview && !review:
		return fmt.Errorf("%s does not require review: a person completes it with `intenthook intents verify %s`", in.ID, in.ID)
	case t.To == intents.InReview && !t.Submitted:
		return fmt.Errorf("%s reaches IN_REVIEW only by a submission whose checks pass (`intenthook submit %s`)", in.ID, in.ID)
	case t.To == intents.Complete && in.Status == intents.InProgress && review && !t.Force:
		return ErrNeedsReview
	case t.To == intents.Complete && in.Status == intents.InReview && !t.Approved && !t.Force:
		return ErrNeedsReview
	case in.Status == intents.InReview && t.To == intents.InProgress && (!t.Rejected || t.Reason == ""):
		return fmt.Errorf("%s is IN_REVIEW: it goes back to IN_PROGRESS through `intenthook intents reject %s --reason \"…\"`", in.ID, in.ID)
	}
	return nil
}

// Amend changes intent id's owned_scope (adding and removing patterns),
// bumping its version; it returns the new scope and version.
func (e *Editor) Amend(ctx context.Context, id string, add, remove []string, reason string) ([]string, int, error) {
	var scope []string
	var version int
	err := e.edit(ctx, id, func(data []byte, c *intents.Catalog, in *intents.Intent) ([]byte, error) {
		if in.Status == intents.Complete || in.Status == intents.Archived {
			return nil, fmt.Errorf("%s is %s: its scope is closed (widening it would widen what commits may touch)", id, in.Status)
		}
		scope = slices.Clone(in.OwnedScope)
		for _, r := range remove {
			i := slices.Index(scope, r)
			if i < 0 {
				return nil, fmt.Errorf("%s's owned_scope has no pattern %q", id, r)
			}
			scope = slices.Delete(scope, i, i+1)
		}
		for _, a := range add {
			if _, err := intents.MatchGlob(a, ""); err != nil {
				return nil, fmt.Errorf("pattern %q: %w", a, err)
			}
			if !slices.Contains(scope, a) {
				scope = append(scope, a)
			}
		}
		if len(scope) == 0 {
			return nil, fmt.Errorf("%s would own nothing: owned_scope needs at least one pattern", id)
		}
		if slices.Equal(scope, in.OwnedScope) {
			return nil, fmt.Errorf("%s's owned_scope already is %v", id, scope)
		}
		if err := treeKept(c, in, scope); err != nil {
			return nil, err
		}
		version = in.Version + 1
		return splice.SetScope(data, id, scope, e.now())
	})
	if err != nil {
		return nil, 0, err
	}
	r := e.record(ledger.EventAmend, id)
	r.Metadata.Intenthook.Reason = reason
	r.Metadata.Intenthook.Paths = scope
	return scope, version, e.Ledger.Append(ctx, r)
}

// treeKept refuses an amendment of in's scope to scope that would put a
// pattern of in outside its parent's scope, or a child's pattern outside
// in's. Undecidable pairs pass: validation warns about them.
func treeKept(c *intents.Catalog, in *intents.Intent, scope []string) error {
	if p := c.Find(in.ParentIntent); p != nil && p != in {
		for _, pat := range scope {
			if r := glob.Within(pat, p.OwnedScope); r.Decided && !r.Covered {
				return fmt.Errorf("%s's pattern %q would reach outside its parent %s's owned_scope (%s): %q; amend %s first", in.ID, pat, p.ID, p.ScopeSummary(), r.Witness, p.ID)
			}
		}
	}
	for _, ch := range c.Children(in.ID) {
		for _, pat := range ch.OwnedScope {
			if r := glob.Within(pat, scope); r.Decided && !r.Covered {
				return fmt.Errorf("%s's child %s owns %q, which would lie outside %s's owned_scope (%q is in it); amend %s first", in.ID, ch.ID, pat, in.ID, r.Witness, ch.ID)
			}
		}
	}
	return nil
}

// openDependencies names in's depends_on that are not done (COMPLETE, or
// ARCHIVED after completion).
func openDependencies(c *intents.Catalog, in *intents.Intent) []string {
	var open []string
	for _, dep := range in.DependsOn {
		d := c.Find(dep)
		switch {
		case d == nil:
			open = append(open, dep+" (missing)")
		case !d.Done():
			open = append(open, dep+" ("+string(d.Status)+")")
		}
	}
	return open
}

// openChildren names in's children that are neither COMPLETE nor ARCHIVED:
// a parent's work is done only when all of its parts are settled.
func openChildren(c *intents.Catalog, in *intents.Intent) []string {
	var open []string
	for _, ch := range c.Children(in.ID) {
		if ch.Status != intents.Complete && ch.Status != intents.Archived {
			open = append(open, ch.ID+" ("+string(ch.Status)+")")
		}
	}
	return open
}

// RecordVerify records an `intents verify` that did not complete the intent.
func (e *Editor) RecordVerify(ctx context.Context, id, summary string) error {
	r := e.record(ledger.EventVerify, id)
	m := &r.Metadata.Intenthook
	m.Success, m.Reason = false, summary
	return e.Ledger.Append(ctx, r)
}

// RecordSubmit records a submission whose checks did not all pass: the
// intent stays IN_PROGRESS.
func (e *Editor) RecordSubmit(ctx context.Context, id, summary string) error {
	r := e.record(ledger.EventSubmit, id)
	m := &r.Metadata.Intenthook
	m.Success, m.Reason = false, summary
	return e.Ledger.Append(ctx, r)
}

// edit runs change on the catalog under its lock; a nil result with no
// error means there is nothing to write.
func (e *Editor) edit(ctx context.Context, id string, change func([]byte, *intents.Catalog, *intents.Intent) ([]byte, error)) error {
	unlock, err := state.Lock(ctx, e.Root, state.LockCatalog, e.LockTimeout)
	if err != nil {
		return err
	}
	defer unlock()
	path := filepath.Join(e.Root, filepath.FromSlash(intents.File))
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read catalog: %w", err)
	}
	c, err := intents.Parse(data)
	if err != nil {
		return err
	}
	in := c.Find(id)
	if in == nil {
		return fmt.Errorf("intent %s not found in %s", id, intents.File)
	}
	out, err := change(data, c, in)
	if err != nil || out == nil {
		return err
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	e.journal(out)
	return state.WriteFile(path, out, st.Mode().Perm(), true)
}

func (e *Editor) journal(content []byte) {
	if e.Hook {
		guard.JournalBy(e.Root, intents.File, content, guard.By(e.Session, e.ToolUse))
	}
}

func (e *Editor) now() time.Time {
	if e.Now == nil {
		return time.Now()
	}
	return e.Now()
}

func (e *Editor) record(event, id string) *ledger.Record {
	return ledger.NewRecord(git.Revision(e.Root), ledger.Meta{
		Event: event, IntentID: ledger.NullString(id), SessionID: e.Session, ToolName: e.Tool,
		ScopeValidation: "EXEMPT", Decision: "allow",
	})
}

// Fixed is what Fix changed in one intent.
type Fixed struct {
	ID   string   `json:"id"`
	Keys []string `json:"keys"`
	// Note says what was left alone and why (an archived intent with no
	// record of its completion).
	Note string `json:"note,omitempty"`
}

// Fix adds the timestamps people leave out of a hand-written catalog:
// created_at and updated_at (now) where missing, and completed_at on each
// ARCHIVED intent that lacks it and whose completion the ledger recorded (a
// `verify` or `transition` record to COMPLETE): such intents were archived
// before completed_at existed, and without it they no longer satisfy
// depends_on. completions maps an intent id to when it became COMPLETE.
func (e *Editor) Fix(ctx context.Context, completions map[string]time.Time) ([]Fixed, error) {
	unlock, err := state.Lock(ctx, e.Root, state.LockCatalog, e.LockTimeout)
	if err != nil {
		return nil, err
	}
	defer unlock()
	path := filepath.Join(e.Root, filepath.FromSlash(intents.File))
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read catalog: %w", err)
	}
	c, err := intents.Parse(data)
	if err != nil {
		return nil, err
	}
	now := e.now()
	var out []Fixed
	for _, in := range c.All() {
		if in.ID == "" {
			continue
		}
		var stamps []splice.Stamp
		f := Fixed{ID: in.ID}
		if in.CreatedAt == "" {
			stamps = append(stamps, splice.Stamp{Key: "created_at", At: now})
		}
		if in.UpdatedAt == "" {
			stamps = append(stamps, splice.Stamp{Key: "updated_at", At: now})
		}
		if in.Status == intents.Archived && in.CompletedAt == "" {
			if at, ok := completions[in.ID]; ok {
				stamps = append(stamps, splice.Stamp{Key: "completed_at", At: at})
			} else {
				f.Note = "ARCHIVED with no completion in the ledger: left as abandoned (it does not satisfy depends_on)"
			}
		}
		if len(stamps) > 0 {
			next, err := splice.SetTimes(data, in.ID, stamps)
			if err != nil {
				return out, fmt.Errorf("%s: %w", in.ID, err)
			}
			data = next
			for _, s := range stamps {
				f.Keys = append(f.Keys, s.Key)
			}
		}
		if len(f.Keys) > 0 || f.Note != "" {
			out = append(out, f)
		}
	}
	if !slices.ContainsFunc(out, func(f Fixed) bool { return len(f.Keys) > 0 }) {
		return out, nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return out, err
	}
	e.journal(data)
	return out, state.WriteFile(path, data, st.Mode().Perm(), true)
}

// Completions reads from the ledger when each intent last became COMPLETE
// (a passing verify, or a forced transition). It reads the whole ledger: it
// is for `intents validate --fix`, a person's command, never a hook.
func Completions(root string) (map[string]time.Time, error) {
	out := map[string]time.Time{}
	err := ledger.Scan(root, func(_ []byte, rec *ledger.Record, err error) error {
		if err != nil || rec == nil {
			return nil
		}
		m := rec.Metadata.Intenthook
		if (m.Event != ledger.EventVerify && m.Event != ledger.EventTransition && m.Event != ledger.EventApprove) || m.To != string(intents.Complete) {
			return nil
		}
		if t, err := time.Parse(time.RFC3339Nano, rec.Timestamp); err == nil {
			out[string(m.IntentID)] = t
		}
		return nil
	})
	return out, err
}
