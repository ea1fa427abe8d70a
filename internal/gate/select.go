package gate

import (
	"context"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/selection"
)

// selectIntent is the select step (SPEC §6) of a hook call: the call's
// session, or its agent, selects intent id. The rules are package
// selection's; the gate records the outcome.
func (g *Gate) selectIntent(ctx context.Context, id string) (hook.Decision, error) {
	if d := g.roleIntent(id); d != nil {
		return *d, nil
	}
	who := selection.Who{Session: g.call.SessionID, Agent: g.call.AgentID, Model: g.call.Model, Transcript: g.call.TranscriptPath}
	sel := selection.Selector{WS: g.Workspace, Editor: g.Editor(g.call.SessionID, g.call.ToolName, g.env.Version)}
	res, err := sel.Select(ctx, who, id)
	if err != nil {
		return hook.Decision{}, err
	}
	if res.Intent == nil {
		g.explain.step("select", "deny", hook.Ev("intent", id), "code="+res.Decision.Code)
		return res.Decision, nil
	}
	if res.Session != nil {
		g.session = res.Session
	}
	g.recordSelect(ctx, res.Intent)
	g.explain.step("select", "allow", hook.Ev("intent", res.Intent.ID), hook.Ev("for", who.Describe()))
	return res.Decision, nil
}
