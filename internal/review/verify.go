package review

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/acceptance"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/lessons"
	"github.com/intenthook/intenthook/internal/lifecycle"
	"github.com/intenthook/intenthook/internal/workspace"
)

// ErrNothingToVerify refuses to verify an intent without acceptance
// criteria unless the person confirms the work by hand: nothing to check
// would otherwise pass silently.
var ErrNothingToVerify = errors.New("there is nothing to verify")

// VerifyOptions are how a verification runs.
type VerifyOptions struct {
	// Confirm counts the criteria without a check as met: the person
	// confirms them.
	Confirm bool
	// Timeout bounds each check.
	Timeout     time.Duration
	ToolVersion string
	// Report shows the checks' results before anything is recorded; an
	// error it returns ends the verification there.
	Report func(in *intents.Intent, results []acceptance.Result) error
}

// A Verification is what a person's verification came to.
type Verification struct {
	Intent  *intents.Intent
	Results []acceptance.Result
	// To is the status the intent moved to when every criterion was met
	// (COMPLETE, or IN_REVIEW for an intent that requires review); ""
	// when one was not.
	To intents.Status
	// Warnings are lessons that could not be recorded.
	Warnings []error
}

// Verify is a person's `intents verify ID`: the IN_PROGRESS intent's
// acceptance checks run from the workspace root and are reported
// (o.Report); when every criterion is met the intent becomes COMPLETE, or
// IN_REVIEW when it requires review (passing checks are then a submission,
// and a person's approval completes it). Otherwise the report is recorded
// on the intent, and each failed check becomes a lesson.
func Verify(ctx context.Context, ws *workspace.Workspace, id string, o VerifyOptions) (Verification, error) {
	var v Verification
	in := ws.Catalog.Find(id)
	switch {
	case in == nil:
		return v, fmt.Errorf("intent %s %w", id, ErrNotFound)
	case !in.Valid():
		return v, fmt.Errorf("intent %s is invalid: %s", in.ID, strings.Join(in.Errors(), "; "))
	case in.Status != intents.InProgress:
		return v, fmt.Errorf("intent %s is %s: only IN_PROGRESS intents are verified", in.ID, in.Status)
	case len(in.AcceptanceCriteria) == 0 && !o.Confirm:
		return v, fmt.Errorf("intent %s has no acceptance criteria: %w", in.ID, ErrNothingToVerify)
	}
	v.Intent = in
	var changed []guard.Change
	v.Results, changed = judgedRun(ws, func() []acceptance.Result {
		return acceptance.Run(ctx, ws.Root, in.AcceptanceCriteria, o.Timeout, o.Confirm)
	})
	if len(changed) > 0 {
		return v, checksTampered(ctx, ws, in.ID, o.ToolVersion, changed)
	}
	if o.Report != nil {
		if err := o.Report(in, v.Results); err != nil {
			return v, err
		}
	}
	ed := lifecycle.NewEditor(ws, "", "intenthook", o.ToolVersion)
	if !acceptance.AllOK(v.Results) {
		if err := ed.RecordVerify(ctx, in.ID, verifySummary(v.Results)); err != nil {
			return v, err
		}
		for _, r := range v.Results {
			if msg, failed := acceptance.Lesson(r); failed {
				err := lessons.Record(ctx, ws.Root, ws.Config.LessonsFile, ws.Config.LockTimeout, lessons.Lesson{
					Time: ws.Now(), Code: "acceptance_failed", Intent: in.ID, Tool: "intenthook", Message: msg, Keep: ws.Config.LessonsMax,
				})
				if err != nil {
					v.Warnings = append(v.Warnings, fmt.Errorf("lesson: %w", err))
				}
			}
		}
		return v, nil
	}
	t := lifecycle.Transition{ID: in.ID, To: intents.Complete, Verified: true, Reason: "every acceptance criterion met"}
	if in.NeedsReview(ws.Config.Review.Default) {
		t.To, t.Submitted = intents.InReview, true
	}
	if _, err := ed.Apply(ctx, t); err != nil {
		return v, err
	}
	v.To = t.To
	return v, nil
}

// verifySummary is one line per criterion that is not met, for the ledger.
func verifySummary(rs []acceptance.Result) string {
	var parts []string
	for _, r := range rs {
		if !r.OK() {
			parts = append(parts, r.Description+": "+string(r.Outcome))
		}
	}
	return "not complete: " + strings.Join(parts, "; ")
}

// judgedRun runs an intent's checks between two pictures of the
// governance files, as the guard does around an agent's shell command: the
// checks are code an agent may have written. What they changed is put back
// and returned.
func judgedRun(ws *workspace.Workspace, run func() []acceptance.Result) ([]acceptance.Result, []guard.Change) {
	config, hooks := git.ConfigAndHooks(ws.Root)
	targets := guard.Watch(ws.Root, ws.Governance.Guarded(), config)
	before, err := guard.Take(ws.Root, targets, hooks, git.Revision(ws.Root))
	results := run()
	if err != nil {
		return results, nil // no picture: nothing to compare with
	}
	return results, guard.Undo(ws.Root, guard.Compare(ws.Root, before, targets), nil, ws.Now())
}

// checksTampered records the governance files an intent's checks changed
// as a violation of the intent and refuses the verification: nothing
// completes on checks that changed the rules.
func checksTampered(ctx context.Context, ws *workspace.Workspace, id, version string, changed []guard.Change) error {
	paths := make([]string, 0, len(changed))
	for _, c := range changed {
		paths = append(paths, c.Rel)
	}
	r := ledger.NewRecord(git.Revision(ws.Root), ledger.Meta{
		Event: ledger.EventViolation, IntentID: ledger.NullString(id), ToolName: "intents verify",
		ScopeValidation: ledger.ScopeFail, Decision: "violation", Code: guard.CodeGovernanceTampered, Paths: paths,
		Reason: "the intent's acceptance checks changed governance files; intenthook put them back",
	})
	ed := lifecycle.NewEditor(ws, "", "intenthook", version)
	if err := ed.Ledger.Append(ctx, r); err != nil {
		return err
	}
	return fmt.Errorf("%s's checks changed governance files (%s): intenthook put them back and recorded a violation; nothing was completed — read the checks before running them again", id, strings.Join(paths, ", "))
}
