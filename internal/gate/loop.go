package gate

import (
	"context"
	"strconv"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/lifecycle"
	"github.com/intenthook/intenthook/internal/loop"
)

// checkLoop counts the deny d for the call's agent and escalates it when it
// is the same deny (code, intent, path, tool) `loop.repeats` times within
// `loop.window` (package loop). The count is a line in the session's denial
// log: no ledger scan.
func (g *Gate) checkLoop(ctx context.Context, d hook.Decision) hook.Decision {
	s := g.Config.Loop
	if s.Repeats <= 0 {
		return d
	}
	k := loop.Key{Code: d.Code, Tool: g.call.ToolName}
	if t := g.denied; t != nil {
		k.Intent, k.Path = t.intentID, relOrGiven(t)
	} else {
		k.Intent, _ = g.activeIntent()
	}
	n, err := g.Sessions.CountDenial(ctx, g.call.SessionID, g.call.AgentID, k.String(), g.env.now(), s.Window)
	if err != nil {
		// A deny stands without its count.
		g.note(err)
		return d
	}
	if !s.Escalated(n) {
		g.explain.step("loop", "pass", hook.Ev("count", strconv.Itoa(n)))
		return d
	}
	g.explain.step("loop", s.Action, hook.Ev("count", strconv.Itoa(n)), hook.Ev("code", k.Code))
	d = loop.Escalate(d, n, s)
	if s.Action != loop.Block || k.Intent == "" {
		return d
	}
	// Only work in progress can be blocked; a deny about another status
	// leaves the intent where it is.
	if in := g.Catalog.Find(k.Intent); in == nil || in.Status != intents.InProgress {
		return d
	}
	_, err = g.Editor(g.call.SessionID, g.call.ToolName, g.env.Version).Apply(ctx, lifecycle.Transition{
		ID: k.Intent, To: intents.Blocked, From: intents.InProgress, Reason: loop.Reason(k, n, s),
	})
	return loop.Blocked(d, k.Intent, err)
}
