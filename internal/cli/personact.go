package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/proc"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/workspace"
)

// personAct refuses a person's lever (what, the command line line, on
// intent) that runs in a process of an agent's, whatever variables the
// process cleared (state.AgentAct, the one answer: a process descending
// from the agent's own through its command, one in a headless agent's
// session while its command runs, one its command left running, one in
// the group of an agent run in a terminal), and records the attempt
// against that agent's session: a lever_by_agent violation. It reads the
// recorded command windows and the process's ancestors: a person's
// command, never a hook, pays for it.
func (a *app) personAct(ctx context.Context, ws *workspace.Workspace, what, line, intent string) error {
	now := time.Now()
	w, why, ok := state.AgentAct(ws.Sessions.Windows(now), proc.Chain(), now)
	if !ok {
		return nil
	}
	rec := ledger.NewRecord(ws.Revision(), ledger.Meta{
		Event: ledger.EventViolation, IntentID: ledger.NullString(intent), SessionID: w.Session,
		ScopeValidation: ledger.ScopeFail, Decision: "deny", Code: state.CodeLeverByAgent,
		Command: "intenthook " + line, Reason: why + " (command " + w.Call + ", started " + w.Start.UTC().Format(time.RFC3339) + ")",
	})
	rec.Metadata.Intenthook.Success = false
	if err := ws.Ledger(Version).Append(ctx, rec); err != nil {
		fmt.Fprintf(a.stderr, "intenthook: warning: ledger: %v\n", err)
	}
	return withHint(fmt.Errorf("%s is a person's command, and this process is session %s's: %s; refused and recorded (%s)", what, safetext.Quote(w.Session), why, state.CodeLeverByAgent),
		"run it from a terminal of your own, not the agent's (a command typed in the agent's shell mode runs as the agent's process); an agent asks the user instead")
}
