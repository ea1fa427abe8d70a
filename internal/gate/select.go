package gate

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/lifecycle"
	"github.com/intenthook/intenthook/internal/state"
)

// LiveWindow is how recently a session must have been seen to count as
// holding its intent.
const LiveWindow = 30 * time.Minute

// Select binds intent id to the call's session (or agent) after the
// selection rules of SPEC §6, starting a PENDING intent.
func (g *Gate) Select(ctx context.Context, id string) (hook.Decision, error) {
	in, warning, deny, err := g.activate(ctx, id)
	if err != nil || deny != nil {
		if deny != nil {
			g.explain.step("select", "deny", hook.Ev("intent", id), "code="+deny.Code)
			return *deny, nil
		}
		return hook.Decision{}, err
	}
	if d, claimed, err := g.bind(ctx, in); err != nil || claimed {
		return d, err
	}
	g.recordSelect(ctx, in)
	who := "this session"
	if g.call.AgentID != "" {
		who = "agent " + g.call.AgentID
	}
	g.explain.step("select", "allow", hook.Ev("intent", in.ID), hook.Ev("for", who))
	return hook.Decision{
		Verdict: hook.AllowWithContext,
		Message: fmt.Sprintf("intenthook: %s selected intent %s (%s)", who, in.ID, in.Name),
		Context: g.selectionContext(in, warning),
	}, nil
}

// SelectDefault makes id the workspace default, for sessions with no
// selection of their own.
func (g *Gate) SelectDefault(ctx context.Context, id string) (hook.Decision, error) {
	in, warning, deny, err := g.activate(ctx, id)
	if err != nil || deny != nil {
		if deny != nil {
			return *deny, nil
		}
		return hook.Decision{}, err
	}
	if err := state.WriteDefault(g.Root, in.ID, g.env.now()); err != nil {
		return hook.Decision{}, err
	}
	g.defaultID = &in.ID
	g.recordSelect(ctx, in)
	return hook.Decision{Verdict: hook.AllowWithContext, Message: "intenthook: workspace default intent is " + in.ID, Context: g.selectionContext(in, warning)}, nil
}

// Clear unbinds the session's (or agent's) selection, or with def the
// workspace default.
func (g *Gate) Clear(ctx context.Context, def bool) error {
	if def {
		g.defaultID = nil
		return state.WriteDefault(g.Root, "", g.env.now())
	}
	return g.updateSession(ctx, func(s *state.Session) { s.Select(g.call.AgentID, "") })
}

// Context returns the <intent_context> of intent id.
func (g *Gate) Context(id string) (string, error) {
	in := g.Catalog.Find(id)
	if in == nil {
		return "", fmt.Errorf("intent %s not found in %s", id, intents.File)
	}
	return g.intentContext(in, "", g.Budget()), nil
}

func (g *Gate) selectionContext(in *intents.Intent, warning string) string {
	return g.intentContext(in, warning, g.Budget())
}

// activate checks that id can be worked on, starting it when PENDING. It
// returns a warning when other live sessions hold the intent.
func (g *Gate) activate(ctx context.Context, id string) (*intents.Intent, string, *hook.Decision, error) {
	evidence := []string{hook.Ev("intent", id), hook.Ev("session", g.call.SessionID)}
	deny := func(d hook.Decision) (*intents.Intent, string, *hook.Decision, error) { return nil, "", &d, nil }
	if id == "" {
		return deny(hook.Denial{
			Code:     hook.CodeIntentNotFound,
			Headline: "no intent id given",
			Why:      "intents you can select:\n" + selectable(g.Catalog, g.Budget()/2),
			Instead:  "run `intenthook select <ID>` with one of those ids",
			Evidence: evidence,
		}.Decision())
	}
	in := g.Catalog.Find(id)
	switch {
	case in == nil:
		return deny(g.notFound(id, evidence))
	case !in.Valid():
		return deny(invalidIntent(in, evidence))
	case in.Status == intents.Pending:
		if d, ok := g.dependenciesIncomplete(in, evidence); ok {
			return deny(d)
		}
	case in.Status != intents.InProgress:
		return deny(notInProgress(in, evidence))
	}
	holders, err := g.liveHolders(id)
	if err != nil {
		return nil, "", nil, err
	}
	if len(holders) > 0 && g.Config.ExclusiveIntents {
		return deny(claimed(id, holders, evidence))
	}
	if in.Status == intents.Pending {
		if err := g.start(ctx, in); err != nil {
			return nil, "", nil, err
		}
	}
	warning := ""
	if len(holders) > 0 {
		warning = fmt.Sprintf("warning: intent %s is also held by %s; coordinate to avoid overlapping edits", id, strings.Join(holders, ", "))
	}
	return in, warning, nil, nil
}

func claimed(id string, holders, evidence []string) hook.Decision {
	return hook.Denial{
		Code:     hook.CodeIntentClaimed,
		Headline: fmt.Sprintf("intent %s is held by another live session", id),
		Why:      "exclusive_intents is on and " + strings.Join(holders, ", ") + " selected it in the last 30 minutes",
		Instead:  "select another intent, or ask the user to clear the other session (intenthook select --clear --session <SID>)",
		Evidence: evidence,
	}.Decision()
}

// bind records the selection in the session's state. With
// exclusive_intents, the check that no other live session holds the intent
// and the binding happen under the catalog lock, so two sessions selecting
// at once cannot both win.
func (g *Gate) bind(ctx context.Context, in *intents.Intent) (hook.Decision, bool, error) {
	set := func() error {
		return g.updateSession(ctx, func(s *state.Session) { s.Select(g.call.AgentID, in.ID) })
	}
	if !g.Config.ExclusiveIntents {
		return hook.Decision{}, false, set()
	}
	unlock, err := state.Lock(ctx, g.Root, state.LockCatalog, g.Config.LockTimeout)
	if err != nil {
		return hook.Decision{}, false, err
	}
	defer unlock()
	holders, err := g.liveHolders(in.ID)
	if err != nil {
		return hook.Decision{}, false, err
	}
	if len(holders) > 0 {
		return claimed(in.ID, holders, []string{hook.Ev("intent", in.ID), hook.Ev("session", g.call.SessionID)}), true, nil
	}
	return hook.Decision{}, false, set()
}

func (g *Gate) dependenciesIncomplete(in *intents.Intent, evidence []string) (hook.Decision, bool) {
	var open []string
	for _, dep := range in.DependsOn {
		if d := g.Catalog.Find(dep); d == nil || d.Status != intents.Complete {
			status := "missing"
			if d != nil {
				status = string(d.Status)
			}
			open = append(open, dep+" ("+status+")")
		}
	}
	if len(open) == 0 {
		return hook.Decision{}, false
	}
	return hook.Denial{
		Code:     hook.CodeDependencyIncomplete,
		Headline: fmt.Sprintf("intent %s cannot start: it depends on unfinished work", in.ID),
		Why:      "depends_on must be COMPLETE first: " + strings.Join(open, ", "),
		Instead:  "work on the intents it depends on first, or ask the user",
		Evidence: evidence,
	}.Decision(), true
}

// start moves a PENDING intent to IN_PROGRESS in the catalog file, changing
// only its status and updated_at, under the catalog lock. Another process
// may have started it meanwhile: then there is nothing to do.
func (g *Gate) start(ctx context.Context, in *intents.Intent) error {
	_, err := g.Editor().Apply(ctx, lifecycle.Transition{ID: in.ID, To: intents.InProgress, From: intents.Pending, Reason: "selected"})
	if err != nil {
		return fmt.Errorf("start %s: %w", in.ID, err)
	}
	in.Status = intents.InProgress
	return nil
}

// Editor changes this workspace's catalog on behalf of the call's session.
func (g *Gate) Editor() *lifecycle.Editor {
	return &lifecycle.Editor{Root: g.Root, LockTimeout: g.Config.LockTimeout, Now: g.env.Now, Ledger: g.ledger(), Session: g.call.SessionID, Tool: g.call.ToolName}
}

// liveHolders names the other sessions seen in the last 30 minutes that have
// id selected.
func (g *Gate) liveHolders(id string) ([]string, error) {
	all, err := g.sessions.List()
	if err != nil {
		return nil, err
	}
	now := g.env.now()
	var out []string
	for _, s := range all {
		if s.ID == g.call.SessionID || now.Sub(s.LastSeen) > LiveWindow {
			continue
		}
		if s.Intent == id {
			out = append(out, "session "+s.ID)
			continue
		}
		for agent, aid := range s.AgentIntents {
			if aid == id {
				out = append(out, "session "+s.ID+" agent "+agent)
				break
			}
		}
	}
	return out, nil
}
