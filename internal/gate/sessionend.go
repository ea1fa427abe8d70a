package gate

import (
	"context"
	"strings"

	"github.com/intenthook/intenthook/internal/selection"
	"github.com/intenthook/intenthook/internal/state"
)

// sessionEnds is the gate's side of a session's end and resumption.
type sessionEnds struct{ *Gate }

// endSession marks the call's session ended (SessionEnd): its selections
// then hold no intent against other sessions (state.Session.Released).
// Any process can send such an event, a program in another session's shell
// command among them, and the hooks cannot tell it from the agent's: an
// end that comes while another session's shell command runs is kept, but
// releases nothing. It reads state/pending/ and the session's own file,
// never the ledger: SessionEnd hooks share a short budget.
func (g sessionEnds) endSession(ctx context.Context) error {
	now := g.env.now()
	during := g.Sessions.CommandsRunning(g.call.SessionID, now)
	if len(during) == 0 {
		g.explain.step("context", "end", "releases the session's selections")
	} else {
		g.explain.step("context", "end", "releases nothing: shell commands of other sessions are running ("+strings.Join(during, ", ")+")")
	}
	if err := g.updateSessionAt(ctx, now, func(s *state.Session) { s.End(now, during) }); err != nil {
		return err
	}
	if len(during) == 0 {
		selection.Release(g.Workspace, g.session)
		selection.ReleaseLater(g.Workspace, g.call.SessionID)
	}
	return nil
}

// holdsAnything reports whether the call's session has an end or a
// selection for a resume to take back.
func (g sessionEnds) holdsAnything() bool {
	s := g.session
	return !s.EndedAt.IsZero() || s.Intent != "" || len(s.AgentIntents) > 0
}

// resume takes a resumed session's selections back (selection.Resume),
// returning what the session is told about the intents others took
// meanwhile, each line followed by a blank one.
func (g sessionEnds) resume(ctx context.Context) (string, error) {
	sel := selection.Selector{WS: g.Workspace}
	who := selection.Who{Session: g.call.SessionID, Model: g.call.Model, Transcript: g.call.TranscriptPath}
	sess, told, err := sel.Resume(ctx, who)
	if err != nil {
		return "", err
	}
	g.session = sess
	var b strings.Builder
	for _, line := range told {
		b.WriteString(line + "\n\n")
	}
	return b.String(), nil
}
