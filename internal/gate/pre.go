package gate

import (
	"context"
	"fmt"

	"github.com/intenthook/intenthook/internal/digest"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/workspace"
)

// Pre runs the PreToolUse decision chain (SPEC §5) for the call. Every deny
// is also appended to the ledger, whichever step gave it.
func (g *Gate) Pre(ctx context.Context) (hook.Decision, error) {
	if g.call.Event == hook.PermissionRequest {
		// The host's question after a PreToolUse that judged the call.
		return asking{g}.hostQuestion(ctx), nil
	}
	g.applyTools()
	if (plugins{g}).leftToPlugin() {
		// The plugin is asked about the same call next and gives its deny;
		// what the call leaves for post (the backstop's and the guard's
		// pictures, pre-hashes) is taken here all the same.
		g.explain.step("plugin", "defer", "the session's plugin gives this call's deny")
		d, err := g.pre(ctx)
		if err != nil {
			g.note(err)
		}
		if d.Verdict == hook.Deny && g.call.ToolUseID != "" {
			// Should the call run all the same, its post finds this: the
			// plugin did not deny it.
			p := state.Pending{PluginDeny: true, At: g.env.now().UTC(), Tool: g.call.ToolName}
			p.IntentID, _ = g.activeIntent()
			g.note(g.Sessions.PutPending(ctx, g.call.SessionID, g.call.ToolUseID, p))
		}
		return hook.Decision{}, nil
	}
	d, err := g.pre(ctx)
	if err == nil && d.Verdict == hook.Deny {
		d = g.checkLoop(ctx, d)
	}
	if err == nil && d.Verdict == hook.Ask {
		d = asking{g}.standingAnswer(d)
	}
	if err == nil && d.Verdict == hook.Ask {
		// Every lock of the decision is released by now: the wait holds
		// none.
		d = asking{g}.waitForPerson(ctx, d)
	}
	if err == nil && d.Verdict == hook.Deny {
		g.recordDenial(ctx, g.denied, d)
	}
	return d, err
}

func (g *Gate) pre(ctx context.Context) (hook.Decision, error) {
	delegations{g}.trackAgents(ctx)
	class := g.class()
	g.explain.step("classify", string(class), "tool="+g.call.ToolName)
	switch class {
	case hook.ClassRead, hook.ClassExempt, hook.ClassUnclassified:
	default:
		if d, ok := (hookProgram{g}).check(); ok {
			return d, nil
		}
	}
	if d := (roleRules{g}).checkRole(class); d != nil {
		return *d, nil
	}
	switch class {
	case hook.ClassSelect:
		return g.selectIntent(ctx, g.call.IntentID)
	case hook.ClassSubmit:
		return g.submit(ctx, g.call.IntentID)
	case hook.ClassShell:
		return packages{g}.preShell(ctx)
	case hook.ClassWrite, hook.ClassDelete:
		if d := g.closedWithoutState(); d != nil {
			return *d, nil
		}
		if d := (budgets{g}).check(); d != nil {
			return *d, nil
		}
		return g.preWrite(ctx, class)
	case hook.ClassExempt:
		if len(g.call.Paths) > 0 {
			attributed{g}.preAttributed(ctx)
			return hook.Decision{}, nil
		}
	}
	g.explain.step("decide", "allow", "reads, exempt and unclassified tools are not gated")
	return hook.Decision{}, nil
}

// preWrite checks every path a write or delete tool names.
func (g *Gate) preWrite(ctx context.Context, class hook.Class) (hook.Decision, error) {
	if len(g.call.Paths) == 0 {
		return g.targetUnknown(), nil
	}
	var targets []*target
	for _, p := range g.call.Paths {
		targets = append(targets, g.newTarget(p, g.call.ToolName, class == hook.ClassDelete))
	}
	d, pass, err := g.decideTargets(targets)
	if err != nil || d.Verdict == hook.Deny {
		return d, err
	}
	// The decision stands even when its pre-hashes cannot be stored (a
	// held lock, a broken state/): post then records without them.
	g.note(g.storePending(ctx, pass, d.Verdict == hook.Ask))
	return d, nil
}

// decideTargets runs the target chain for each target; the strictest verdict
// wins and a deny names the first denied target. It returns the governed
// targets that passed, whose pre-hashes the caller leaves for PostToolUse
// once the call's verdict is known.
func (g *Gate) decideTargets(targets []*target) (hook.Decision, []*target, error) {
	var worst hook.Decision
	var pass []*target
	for _, t := range targets {
		d := g.runChain(t)
		if d.Verdict == hook.Deny {
			g.denied = t
			return d, nil, nil
		}
		if d.Stricter(worst) {
			worst = d
		}
		if t.governed {
			pass = append(pass, t)
		}
	}
	return worst, pass, nil
}

// target is one path under the chain, with the facts the steps need.
type target struct {
	given    string
	tool     string
	delete   bool // a delete tool (not a shell delete): asks
	removes  bool // a shell command deletes it
	shell    bool // a shell command's target
	dir      bool // a shell command makes it a directory
	res      workspace.Resolved
	intent   *intents.Intent
	intentID string
	from     string // where the active intent came from
	pattern  string // the owned_scope pattern that matched
	scope    string // PASS, IGNORED
	governed bool   // inside the root and not temp: has a pre-hash to store
	hash     func() string
}

func (g *Gate) newTarget(p, tool string, del bool) *target {
	t := &target{given: p, tool: tool, delete: del}
	var memo *string
	t.hash = func() string {
		if memo == nil {
			h, _ := digest.File(t.res.Abs)
			memo = &h
		}
		return *memo
	}
	return t
}

// step is one link of the target chain: it decides (non-nil) or passes.
type step struct {
	name string
	fn   func(g *Gate, t *target) *hook.Decision
}

// chain is the decision chain of SPEC §5 steps 6–16, in order: the rules'
// steps (7–15) are one, judge.Judge's, which a replay shares.
var chain = []step{
	{"resolve-path", (*Gate).checkPath},
	{"rules", (*Gate).checkRules},
	{"stale", (*Gate).checkStale},
	{"approval", (*Gate).checkApproval},
}

// allowStop is returned by a step that ends the chain with an allow.
var allowStop = &hook.Decision{Verdict: hook.Allow}

func (g *Gate) runChain(t *target) hook.Decision {
	for _, s := range chain {
		d := s.fn(g, t)
		if d == nil {
			continue
		}
		if d == allowStop {
			return hook.Decision{}
		}
		if s.name != "rules" { // the rules' step notes its own
			g.explain.step(s.name, d.Verdict.String(), "code="+d.Code)
		}
		return *d
	}
	t.scope = orDefault(t.scope, ledger.ScopePass)
	g.explain.step("decide", "allow", hook.Ev("path", t.res.Rel), hook.Ev("intent", t.intentID))
	return hook.Decision{}
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// storePending records the pre-hash of each allowed target under the
// call's tool_use_id (step 15), for PostToolUse.
func (g *Gate) storePending(ctx context.Context, ts []*target, asked bool) error {
	p := state.Pending{}
	if g.pending != nil {
		p = *g.pending
	}
	p.Asked = asked
	if (len(ts) == 0 && p.Backstop == nil && !asked && p.Guard == nil) || g.call.ToolUseID == "" {
		return nil
	}
	p.AgentID, p.Tool, p.At = g.call.AgentID, g.call.ToolName, g.env.now().UTC()
	p.IntentID, _ = g.activeIntent()
	for _, t := range ts {
		if p.PreHash == nil {
			p.PreHash = map[string]string{}
		}
		p.PreHash[t.res.Rel] = t.hash()
		if t.scope != ledger.ScopePass {
			if p.Scope == nil {
				p.Scope = map[string]string{}
			}
			p.Scope[t.res.Rel] = t.scope
		}
	}
	return g.Sessions.PutPending(ctx, g.call.SessionID, g.call.ToolUseID, p)
}

func (g *Gate) evidence(t *target) []string {
	status := ""
	if t.intent != nil {
		status = string(t.intent.Status)
	}
	return []string{hook.Ev("path", relOrGiven(t)), hook.Ev("intent", t.intentID), hook.Ev("status", status), hook.Ev("session", g.call.SessionID)}
}

func relOrGiven(t *target) string {
	if t.res.Rel != "" {
		return t.res.Rel
	}
	return t.given
}

// targetUnknown denies a write or delete whose files intenthook cannot find
// in the tool's input: an unknown target is never allowed. Without an
// intent the agent is first told to select one.
func (g *Gate) targetUnknown() hook.Decision {
	t := &target{tool: g.call.ToolName}
	if d := g.checkIntentSelected(t); d != nil {
		g.explain.step("target", "unknown", "no intent either")
		return *d
	}
	why := g.call.Unparsed
	if why == "" {
		why = "the tool's input names no file"
	}
	g.explain.step("target", "unknown", why)
	return hook.Denial{
		Code:     hook.CodeTargetUnknown,
		Headline: fmt.Sprintf("%s changes files, and intenthook cannot tell which", g.call.ToolName),
		Why:      why + "; every write must be checked against " + t.intentID + "'s owned_scope",
		Instead:  "name the file explicitly (a write or edit tool with its path, or a well-formed patch), or ask the user",
		Evidence: []string{hook.Ev("tool", g.call.ToolName), hook.Ev("intent", t.intentID), hook.Ev("session", g.call.SessionID)},
	}.Decision()
}
