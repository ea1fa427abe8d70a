package selection

import (
	"context"
	"fmt"
	"strings"

	"github.com/intenthook/intenthook/internal/delegation"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/state"
)

// Delegate hands intent id to the next subagent of agentType that who's
// session starts (package delegation), after the rules of a selection: the
// intent exists, is valid, can start (a PENDING one is started), is not
// claimed elsewhere under exclusive_intents. who.Agent is the coordinator.
func (s *Selector) Delegate(ctx context.Context, who Who, id, agentType string) (Result, state.Delegation, error) {
	if r, ok := s.WS.Config.Roles.For(agentType); ok && !r.AllowsIntent(id) {
		return Result{Decision: hook.Denial{
			Code:     hook.CodeRoleNotAllowed,
			Headline: fmt.Sprintf("%s agents may not work on intent %s", agentType, id),
			Why:      fmt.Sprintf("the workspace's roles (.orchestration/config.yaml) let %s agents work only on %s", agentType, strings.Join(r.Intents, ", ")),
			Instead:  "delegate it to an agent type whose role allows it, or ask the user",
			Evidence: []string{hook.Ev("intent", id), hook.Ev("for", agentType), hook.Ev("session", who.Session)},
		}.Decision()}, state.Delegation{}, nil
	}
	in, warning, deny, err := s.activate(ctx, who, id)
	if err != nil || deny != nil {
		if deny != nil {
			return Result{Decision: *deny}, state.Delegation{}, nil
		}
		return Result{}, state.Delegation{}, err
	}
	var d state.Delegation
	sess, err := s.update(ctx, who, func(ss *state.Session) {
		d = delegation.Add(ss, in.ID, agentType, who.Agent, s.WS.Now())
	})
	if err != nil {
		return Result{}, state.Delegation{}, err
	}
	return Result{
		Intent:  in,
		Session: sess,
		Decision: hook.Decision{
			Verdict: hook.AllowWithContext,
			Message: fmt.Sprintf("intenthook: %s delegated intent %s (%s) to the next %s subagent it starts", who.Describe(), in.ID, in.Name, agentType),
			Context: delegatedContext(in, agentType, warning),
		},
	}, d, nil
}

func delegatedContext(in *intents.Intent, agentType, warning string) string {
	text := fmt.Sprintf("intenthook: the next %s subagent you start (Task or Agent tool, subagent_type %q) works on %s (%s): its writes are fenced by %s. "+
		"Start the subagents in the order you delegated to them; tell each which intent it works on, and that it may confirm it by running `intenthook select %s` first.",
		agentType, agentType, in.ID, in.Name, in.ScopeSummary(), in.ID)
	if warning != "" {
		text += "\n" + warning
	}
	return text
}

// Recall drops the delegations to agentType in who's session that no agent
// has claimed, and returns how many. (A claimed one is recalled by clearing
// the agent's selection.)
func (s *Selector) Recall(ctx context.Context, who Who, agentType string) (int, error) {
	n := 0
	_, err := s.update(ctx, who, func(ss *state.Session) { n = delegation.Recall(ss, agentType) })
	return n, err
}
