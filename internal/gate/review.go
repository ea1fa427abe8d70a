package gate

import (
	"context"
	"errors"
	"fmt"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/lifecycle"
	"github.com/intenthook/intenthook/internal/review"
	"github.com/intenthook/intenthook/internal/selection"
)

// submit is an agent's `intenthook submit <ID>` (or the MCP tool
// submit_for_review): the call's session or agent must hold the intent,
// IN_PROGRESS, and the intent must require review. The request is recorded
// under the call's tool_use_id for the command that runs the checks and
// makes the transition; that command refuses to act in an agent's shell
// without one.
func (g *Gate) submit(ctx context.Context, id string) (hook.Decision, error) {
	if d := g.roleIntent(id); d != nil {
		return *d, nil
	}
	evidence := []string{hook.Ev("intent", id), hook.Ev("session", g.call.SessionID)}
	if g.call.AgentID != "" {
		evidence = append(evidence, hook.Ev("agent", g.call.AgentID))
	}
	active, _ := g.activeIntent()
	if active != id {
		held := "holds no intent"
		if active != "" {
			held = "works on " + active + ", not " + id
		}
		g.explain.step("submit", "deny", hook.Ev("intent", id), hook.Ev("active", active))
		return hook.Denial{
			Code:     hook.CodeIntentRequired,
			Headline: fmt.Sprintf("intenthook submit %s: this session %s", id, held),
			Why:      "an agent submits only the intent it works on",
			Instead:  fmt.Sprintf("select it first (`intenthook select %s`), or submit the intent you work on", id),
			Evidence: evidence,
		}.Decision(), nil
	}
	in := g.Catalog.Find(id)
	switch {
	case in == nil:
		return selection.NotFound(g.Catalog, id, g.Budget(), evidence), nil
	case !in.Valid():
		return selection.Invalid(in, evidence), nil
	}
	switch err := review.Submittable(in, g.Config.Review.Default); {
	case errors.Is(err, review.ErrNotInProgress):
		return selection.NotInProgress(in, evidence), nil
	case errors.Is(err, review.ErrNoReview):
		return hook.Denial{
			Code:     hook.CodeProtectedPath,
			Headline: fmt.Sprintf("%s does not require review: completing it is for the user", id),
			Why:      "only intents with review: required (or the workspace's review.default) are submitted by agents",
			Instead:  fmt.Sprintf("tell the user the work is done; the user runs `intenthook intents verify %s`", id),
			Evidence: evidence,
		}.Decision(), nil
	}
	req := review.Request{Intent: id, Session: g.call.SessionID, Agent: g.call.AgentID, Model: g.call.Model, ToolUseID: g.call.ToolUseID, At: g.env.now().UTC()}
	if err := review.NewStore(g.Workspace).Request(ctx, req); err != nil {
		return hook.Decision{}, fmt.Errorf("record the submission: %w", err)
	}
	g.explain.step("submit", "allow", hook.Ev("intent", id))
	return hook.Decision{Verdict: hook.AllowWithContext, Message: fmt.Sprintf("intenthook: submitting %s for review: its acceptance checks run now", id)}, nil
}

// handedSubmission makes the move the command's submission of id ("" when
// the command is none) could not: its checks passed in a shell whose OS
// sandbox keeps the catalog read-only, and it handed the transition to this
// call's post, which runs outside the sandbox. Only a submission the hook
// vouched for (the whole command) and handed to this very call moves; the
// rules are the ones the guard has just put back. Returns what the model
// reads.
func (g *Gate) handedSubmission(ctx context.Context, id string) string {
	if id == "" {
		return ""
	}
	req, ok, err := review.NewStore(g.Workspace).TakeHanded(ctx, id, g.call.ToolUseID, g.env.now())
	if err != nil || !ok || req.Session != g.call.SessionID {
		g.note(err)
		return ""
	}
	from, err := g.Editor(g.call.SessionID, g.call.ToolName, g.env.Version).Apply(ctx, lifecycle.Transition{
		ID: id, To: intents.InReview, From: intents.InProgress, Submitted: true, Reason: "acceptance checks passed", Result: req.Result,
	})
	if err == nil && from != intents.InProgress {
		err = fmt.Errorf("%s is %s: only IN_PROGRESS intents are submitted", id, from)
	}
	if err != nil {
		g.explain.step("submit", "handed", err.Error())
		return fmt.Sprintf("intenthook: %s stays IN_PROGRESS: the move to IN_REVIEW failed: %v", id, err)
	}
	g.explain.step("submit", "handed", hook.Ev("intent", id))
	return fmt.Sprintf("intenthook: %s: IN_PROGRESS -> IN_REVIEW (a person approves it: intenthook intents approve %s, or rejects it: intenthook intents reject %s --reason \"…\")", id, id, id)
}
