package review

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/acceptance"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/lifecycle"
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
