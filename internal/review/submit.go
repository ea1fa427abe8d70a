package review

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
	"time"

	"github.com/intenthook/intenthook/internal/acceptance"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/lifecycle"
	"github.com/intenthook/intenthook/internal/summary"
	"github.com/intenthook/intenthook/internal/workspace"
)

// ErrNotInProgress and ErrNoReview are why Submittable refuses an intent.
var (
	ErrNotInProgress = errors.New("only IN_PROGRESS intents are submitted")
	ErrNoReview      = errors.New("does not require review")
)

// Submittable is the one rule of a submission, whoever makes it (an
// agent's intenthook submit, the hook that vouches for it, the MCP tool):
// the intent is IN_PROGRESS, and it requires review (its own review: field,
// else the workspace's review.default, def). The error wraps
// ErrNotInProgress or ErrNoReview and reads as a sentence about in.
func Submittable(in *intents.Intent, def string) error {
	switch {
	case in.Status != intents.InProgress:
		return fmt.Errorf("intent %s is %s: %w", in.ID, in.Status, ErrNotInProgress)
	case !in.NeedsReview(def):
		return fmt.Errorf("intent %s %w", in.ID, ErrNoReview)
	}
	return nil
}

// Outcome is what a submission came to.
type Outcome struct {
	Results []acceptance.Result `json:"criteria"`
	Passed  bool                `json:"passed"`
}

// Submit runs in's acceptance checks from root and, when every one passes,
// moves the intent to IN_REVIEW; otherwise it stays IN_PROGRESS and the
// failing checks are recorded. String criteria are the reviewer's to judge.
func Submit(ctx context.Context, ed *lifecycle.Editor, root string, in *intents.Intent, timeout time.Duration) (Outcome, error) {
	rs := acceptance.Run(ctx, root, in.AcceptanceCriteria, timeout, false)
	for i := range rs {
		if rs[i].Outcome == acceptance.Manual {
			rs[i].Outcome = acceptance.Reviewer
		}
	}
	out := Outcome{Results: rs, Passed: acceptance.AllOK(rs)}
	if !out.Passed {
		return out, ed.RecordSubmit(ctx, in.ID, "not met: "+strings.Join(Failing(rs), "; "))
	}
	from, err := ed.Apply(ctx, lifecycle.Transition{ID: in.ID, To: intents.InReview, From: intents.InProgress, Submitted: true, Reason: "acceptance checks passed"})
	if err == nil && from != intents.InProgress {
		err = fmt.Errorf("%s is %s: only IN_PROGRESS intents are submitted", in.ID, from)
	}
	return out, err
}

// ErrNotFound: the catalog holds no intent of the id a command names.
var ErrNotFound = errors.New("not found")

// A Submission is what `intenthook submit` came to.
type Submission struct {
	Intent *intents.Intent
	Outcome
	// Ran says the checks ran: their report is shown, whatever the error.
	Ran bool
	// Handed says the checks passed in an agent's shell whose OS sandbox
	// keeps the catalog read-only to it: the hook after the command, which
	// runs outside the sandbox, makes the move to IN_REVIEW.
	Handed bool
}

// SubmitIntent is `intenthook submit ID`. In an agent's shell (agentShell)
// it takes only a submission the hook saw and recorded (ErrNoRequest
// otherwise), made for that session; anywhere else it is a person's. The
// intent must be in the catalog (ErrNotFound), valid and Submittable; its
// checks then run (Submit). Where the agent's OS sandbox keeps the catalog
// read-only to its shell, checks that passed hand the move to IN_REVIEW to
// the hook after the command (Handed).
func SubmitIntent(ctx context.Context, ws *workspace.Workspace, id string, agentShell bool, toolVersion string, timeout time.Duration) (Submission, error) {
	var sub Submission
	store := NewStore(ws)
	session, tool := "", "intenthook"
	var req Request
	if agentShell {
		var err error
		if req, err = store.Take(ctx, id, ws.Now()); err != nil {
			return sub, err
		}
		session, tool = req.Session, "Bash"
	}
	in := ws.Catalog.Find(id)
	switch {
	case in == nil:
		return sub, fmt.Errorf("intent %s %w", id, ErrNotFound)
	case !in.Valid():
		return sub, fmt.Errorf("intent %s is invalid: %s", in.ID, strings.Join(in.Errors(), "; "))
	}
	if err := Submittable(in, ws.Config.Review.Default); err != nil {
		return sub, err
	}
	ed := lifecycle.NewEditor(ws, session, tool, toolVersion)
	ed.Hook = session != ""
	out, err := Submit(ctx, ed, ws.Root, in, timeout)
	sub.Intent, sub.Outcome, sub.Ran = in, out, true
	if err != nil && out.Passed && session != "" && readOnly(err) {
		req.At = ws.Now().UTC()
		req.Result, _ = summary.Gather(ws.Root, in.ID, req.At)
		if herr := store.Hand(ctx, req); herr != nil {
			return sub, errors.Join(err, herr)
		}
		err, sub.Handed = nil, true
	}
	return sub, err
}

// readOnly reports whether err is a write refused by the file system: a
// read-only mount (an OS sandbox's), a busy mount point (a file bound
// there), or a permission.
func readOnly(err error) bool {
	return errors.Is(err, syscall.EROFS) || errors.Is(err, syscall.EBUSY) || errors.Is(err, fs.ErrPermission)
}

// Failing names the criteria not met.
func Failing(rs []acceptance.Result) []string {
	var out []string
	for _, r := range rs {
		if !r.OK() {
			out = append(out, r.Description)
		}
	}
	return out
}
