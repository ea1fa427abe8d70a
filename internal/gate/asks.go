package gate

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/asks"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intentctx"
	"github.com/intenthook/intenthook/internal/safetext"
)

// CodeAskDenied: a person answered the call's pending ask (ask.via: wait)
// with deny; their reason is in the message, fenced as a person's words.
const CodeAskDenied = "ask_denied"

// asking is the gate's side of the asks that wait for a person
// (docs/asks.md): standing answers, pending asks, the host's own
// questions.
type asking struct{ *Gate }

// standingAnswer allows an ask a person answered ahead for the session and
// its code (intenthook ask allow --session S --code C --for D), whatever
// ask.via says.
func (p asking) standingAnswer(d hook.Decision) hook.Decision {
	g := p.Gate
	if d.AskCode == "" || g.call.Event != hook.PreToolUse && g.call.Event != hook.PermissionRequest {
		return d
	}
	gr, ok := asks.For(g.Root).Granted(g.call.SessionID, d.AskCode, g.env.now().UTC())
	if !ok {
		return d
	}
	g.explain.step("ask", "standing", "grant="+gr.ID)
	who := asks.Answer{By: gr.By, User: gr.User}.Who()
	until := gr.Until.UTC().Format(time.RFC3339)
	return hook.Decision{Verdict: hook.AllowWithContext,
		Message: fmt.Sprintf("intenthook: %s allowed %s for this session until %s (standing answer %s)", who, d.AskCode, until, gr.ID),
		Context: fmt.Sprintf("intenthook: a person (%s) allowed calls asked about for %s in this session until %s (`intenthook ask allow --session`).", who, d.AskCode, until)}
}

// waitForPerson turns an ask into a pending ask when the settings say so
// (ask.via: wait), and waits for a person's intenthook ask, holding no
// lock: allow lets the call run, deny denies it with the person's reason,
// and no answer within ask.timeout leaves the ask as it was (the host's
// prompt, or approval_required where the host has none). Without the
// setting it reads nothing.
func (p asking) waitForPerson(ctx context.Context, d hook.Decision) hook.Decision {
	g := p.Gate
	if d.Verdict != hook.Ask || !g.Config.Ask.Waits() || g.call.Event != hook.PreToolUse && g.call.Event != hook.PermissionRequest {
		return d
	}
	now := g.env.now().UTC().Truncate(time.Millisecond)
	intent, _ := g.activeIntent()
	target := p.target()
	store := asks.For(g.Root)
	a := asks.Ask{
		Session: g.call.SessionID, Agent: g.call.Agent, AgentID: g.call.AgentID, Intent: intent,
		Tool: g.call.ToolName, ToolUseID: g.call.ToolUseID, Target: target, Code: cmp.Or(d.Code, d.AskCode), Why: d.Message,
		Created: now, Deadline: now.Add(g.Config.Ask.Timeout), PID: os.Getpid(), WorkTree: g.Root,
	}
	var ans asks.Answer
	var ok bool
	if g.Config.Ask.Remote() {
		var err error
		if a, ans, ok, err = p.waitRemote(ctx, a); err != nil {
			g.note(fmt.Errorf("ask.console: %w: the host asks instead", err))
			return d
		}
	} else {
		var err error
		if a, err = store.Open(a, g.Sessions.By); err != nil {
			g.note(fmt.Errorf("pending ask: %w: the host asks instead", err))
			return d
		}
		defer store.Close(a.ID)
		g.explain.step("ask", "wait", fmt.Sprintf("ask=%s timeout=%s", a.ID, g.Config.Ask.Timeout))
		sleep := g.env.Sleep
		if sleep == nil {
			sleep = time.Sleep
		}
		ans, ok = store.Wait(ctx, a, asks.Poll, g.env.now, sleep)
	}
	switch {
	case !ok && g.call.Event == hook.PermissionRequest:
		g.explain.step("ask", "timeout", "ask="+a.ID)
		return hook.Decision{Notes: []string{fmt.Sprintf("intenthook: no one answered ask %s within %s (ask.timeout): the host asks its own question", a.ID, g.Config.Ask.Timeout)}}
	case !ok:
		g.explain.step("ask", "timeout", "ask="+a.ID)
		store.Lapse(a, g.Sessions.By)
		d.Notes = append(d.Notes, fmt.Sprintf("intenthook: no one answered ask %s within %s (ask.timeout): the call is asked about as without ask.via: wait", a.ID, g.Config.Ask.Timeout))
		return d
	case ans.Verdict == asks.Allow:
		g.explain.step("ask", "allow", "ask="+a.ID)
		who := ans.Who()
		how := fmt.Sprintf("`intenthook ask allow %s`", a.ID)
		if g.Config.Ask.Remote() {
			how = "the console at " + safetext.OneLine(g.Config.Ask.Console)
		}
		return hook.Decision{Verdict: hook.AllowWithContext,
			Message: fmt.Sprintf("intenthook: %s allowed this call (ask %s)", who, a.ID),
			Context: fmt.Sprintf("intenthook: a person (%s) allowed this call through %s.", who, how)}
	}
	g.explain.step("ask", "deny", "ask="+a.ID)
	head, _, _ := strings.Cut(d.Message, "\n")
	head = strings.TrimPrefix(head, "intenthook: ")
	why := fmt.Sprintf("it needed a person's approval (%s), and %s answered ask %s with deny", head, ans.Who(), a.ID)
	if r := strings.TrimSpace(ans.Reason); r != "" {
		why += "; their reason, in their own words:\n" + fmt.Sprintf("<ask_answer ask=%q written_by=\"person\">\n%s\n</ask_answer>", a.ID, intentctx.Text(safetext.Clip(r, g.Budget()/4)))
	}
	return hook.Denial{
		Code:     CodeAskDenied,
		Headline: "a person denied this call: " + head,
		Why:      why,
		Instead:  "do not retry this call; do what the person's reason asks, or ask the user how to go on",
		Evidence: []string{hook.Ev("ask", a.ID), hook.Ev("tool", g.call.ToolName), hook.Ev("session", g.call.SessionID)},
	}.Decision()
}

// askTarget is what a pending ask shows of the call: its command, or its
// files.
func (p asking) target() string {
	if p.call.Command != "" {
		return p.call.Command
	}
	return strings.Join(p.call.Paths, " ")
}

// CodeAskHost is what the host's own permission question is about
// (PermissionRequest): a call intenthook's rules let through that the
// host's permission rules ask a person about.
const CodeAskHost = "host_permission"

// hostQuestion answers the host's own permission question about a call
// (Claude Code's and Codex's PermissionRequest, after a PreToolUse that
// did not deny it). With ask.via wait or console, a person answers it
// where they are, as one of intenthook's asks: allow and deny go back to
// the host as its prompt's answer. Without the setting, with no answer in
// time, or right after intenthook's own ask about the same call lapsed,
// it gives no verdict: the host's prompt shows. It never changes the
// call's input.
func (p asking) hostQuestion(ctx context.Context) hook.Decision {
	g := p.Gate
	if !g.Config.Ask.Waits() {
		return hook.Decision{}
	}
	if asks.For(g.Root).TakeLapsed(g.call.SessionID, g.call.ToolName, p.target(), g.env.now().UTC()) {
		g.explain.step("ask", "lapsed", "intenthook's own ask about this call went unanswered: the host asks")
		return hook.Decision{}
	}
	what := safetext.OneLine(g.call.ToolName)
	if t := p.target(); t != "" {
		what += ": " + safetext.OneLine(t)
	}
	d := ask(CodeAskHost, "the agent's host asks permission for this call: "+what,
		"intenthook's rules let the call through; the host's own permission rules ask a person about it",
		[]string{hook.Ev("tool", g.call.ToolName), hook.Ev("session", g.call.SessionID)})
	if d = p.standingAnswer(d); d.Verdict != hook.Ask {
		return d
	}
	return p.waitForPerson(ctx, d)
}
