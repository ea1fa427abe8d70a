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
	return a.person(ctx, ws, what, line, intent, true)
}

// personActNow is personAct for a person's command that changes no rule a
// command's guard compares (an answer to a pending ask, which the hook
// holding the agent's command reads and removes; a console; a notifier):
// it does not wait for the agents' running commands to end. An answer
// must not: the command it answers is one of them.
func (a *app) personActNow(ctx context.Context, ws *workspace.Workspace, what, line, intent string) error {
	return a.person(ctx, ws, what, line, intent, false)
}

func (a *app) person(ctx context.Context, ws *workspace.Workspace, what, line, intent string, await bool) error {
	now := time.Now()
	windows := ws.Sessions.Windows(now)
	w, why, ok := state.AgentAct(windows, proc.Chain(), now)
	if !ok && !await {
		return nil
	}
	if !ok {
		return a.awaitCommands(windows, ws, what)
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

// DefaultPersonWait bounds how long a person's command waits for an
// agent's running command to end; INTENTHOOK_PERSON_WAIT (a duration, in
// the person's environment) sets another.
const DefaultPersonWait = 2 * time.Minute

// awaitCommands waits, saying so, while an agent's shell command runs in
// the work tree: the guard puts back every change to the rules made
// during one, whoever made it (a person's write and a program's look
// alike), so a person's act waits for it to end. Past the bound it is
// refused, to be run again.
func (a *app) awaitCommands(windows []state.Window, ws *workspace.Workspace, what string) error {
	w, running := state.Running(windows)
	if !running {
		return nil
	}
	bound := DefaultPersonWait
	if d, err := time.ParseDuration(a.getenv("INTENTHOOK_PERSON_WAIT")); err == nil && d >= 0 {
		bound = d
	}
	fmt.Fprintf(a.stderr, "intenthook: waiting for session %s's shell command (%s, started %s) to end before %s runs, at most %s: a change to the rules during an agent's command is put back\n",
		safetext.Quote(w.Session), safetext.Quote(w.Call), w.Start.UTC().Format(time.RFC3339), what, bound)
	deadline := time.Now().Add(bound)
	for {
		if _, running = state.Running(ws.Sessions.Windows(time.Now())); !running {
			return nil
		}
		if time.Now().After(deadline) {
			return withHint(fmt.Errorf("%s did not run: session %s's shell command (%s) still runs after %s", what, safetext.Quote(w.Session), safetext.Quote(w.Call), bound),
				"run it again once the agent's command has ended")
		}
		time.Sleep(200 * time.Millisecond)
	}
}
