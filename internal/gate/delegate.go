package gate

import (
	"context"
	"fmt"
	"strings"

	"github.com/intenthook/intenthook/internal/delegation"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/roles"
	"github.com/intenthook/intenthook/internal/selection"
	"github.com/intenthook/intenthook/internal/state"
)

// delegations is the gate's side of intents handed to subagents.
type delegations struct{ *Gate }

// delegate is `intenthook select <ID> --for <TYPE>` from a coordinator's
// shell: the next subagent of that type the session starts gets the intent
// (package delegation).
func (g delegations) delegate(ctx context.Context, id, agentType string) (hook.Decision, error) {
	own, _ := g.activeIntent()
	if why := delegation.MayDelegate(g.Catalog, g.session, g.call.AgentID, own, id, g.Config.Delegation.MaxDepth); why != "" {
		g.explain.step("delegate", "deny", hook.Ev("intent", id), hook.Ev("for", agentType))
		who := "this session"
		if g.call.AgentID != "" {
			who = strings.TrimSpace(g.call.AgentType + " agent " + g.call.AgentID)
		}
		instead := "delegate " + own + " or an intent beneath it (parent_intent), or ask the user: a person may delegate any intent"
		if own == "" {
			instead = "select the intent you work on first (intenthook select <ID>), or ask the user: a person may delegate any intent"
		}
		return hook.Denial{
			Code:     hook.CodeDelegationNotAllowed,
			Headline: fmt.Sprintf("%s may not delegate intent %s", who, id),
			Why:      why,
			Instead:  instead,
			Evidence: []string{hook.Ev("intent", id), hook.Ev("for", agentType), hook.Ev("own", own), hook.Ev("session", g.call.SessionID)},
		}.Decision(), nil
	}
	who := selection.Who{Session: g.call.SessionID, Agent: g.call.AgentID, Model: g.call.Model, Transcript: g.call.TranscriptPath}
	sel := selection.Selector{WS: g.Workspace, Editor: g.Editor(g.call.SessionID, g.call.ToolName, g.env.Version)}
	res, d, err := sel.Delegate(ctx, who, id, agentType)
	if err != nil || res.Intent == nil {
		return res.Decision, err
	}
	g.session = res.Session
	g.recordDelegation(ctx, d, "pending: the next "+agentType+" subagent this session starts")
	g.explain.step("delegate", "allow", hook.Ev("intent", id), hook.Ev("for", agentType))
	return res.Decision, nil
}

// trackAgents keeps the session's delegations moving, at the start of
// PreToolUse and of SubagentStart: a spawning call takes the pending
// delegation of its subagent type; a subagent seen for the first time is
// remembered and claims the spawned delegation of its type. Both checks
// read the state already loaded: calls of known agents write nothing.
// It returns the delegation a new agent claimed.
func (g delegations) trackAgents(ctx context.Context) (state.Delegation, bool) {
	c := g.call
	switch {
	case c.SubagentType != "" && delegation.Pending(g.session, c.SubagentType):
		var d state.Delegation
		var ok bool
		g.note(g.updateSession(ctx, func(s *state.Session) { d, ok = delegation.Attach(s, c.ToolUseID, c.SubagentType) }))
		if ok {
			g.explain.step("delegate", "spawn", hook.Ev("intent", d.Intent), hook.Ev("for", d.AgentType), hook.Ev("spawn", d.Spawn))
		}
	case delegation.New(g.session, c.AgentID):
		var d state.Delegation
		var ok bool
		err := g.updateSession(ctx, func(s *state.Session) { d, ok = delegation.Claim(s, c.AgentID, c.AgentType, g.env.now()) })
		if err != nil {
			g.note(err)
			return state.Delegation{}, false
		}
		if ok {
			g.explain.step("delegate", "claim", hook.Ev("intent", d.Intent), hook.Ev("agent", c.AgentID), hook.Ev("type", c.AgentType))
			g.recordDelegation(ctx, d, fmt.Sprintf("claimed by %s agent %s (spawn %d)", d.AgentType, d.Agent, d.SpawnSeq))
			return d, true
		}
	}
	return state.Delegation{}, false
}

// recordDelegation appends a delegate record: who delegated (the record's
// session, and the coordinator's agent id in the reason), to which agent id
// and type, which intent.
func (g delegations) recordDelegation(ctx context.Context, d state.Delegation, what string) {
	r := g.record(ledger.EventDelegate, d.Intent)
	m := &r.Metadata.Intenthook
	m.AgentID, m.AgentType, m.ToolUseID = ledger.NullString(d.Agent), d.AgentType, d.Spawn
	m.ScopeValidation, m.Decision, m.Success = ledger.ScopeExempt, "allow", true
	by := orDefault(d.By, roles.Main)
	m.Reason = fmt.Sprintf("delegated by %s: %s", by, what)
	g.note(g.appendRecords(ctx, r))
}
