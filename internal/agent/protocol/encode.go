package protocol

import (
	"encoding/json"
	"strings"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/jsontext"
)

// Dialect is the Claude Code answer format (PROTOCOLS.md §1.5) as one agent
// reads it: exit 0 with JSON, or exit 2 with the message on stderr, never
// JSON with a non-zero exit. Most agents with Claude-shaped hooks read it;
// the flags say where they part from Claude Code.
type Dialect struct {
	// Title names the agent in messages.
	Title string
	// NoAsk: the agent cannot put a question to the user from a hook (it
	// ignores ask, or runs the tool): ask becomes an instructive deny.
	NoAsk bool
	// BareAllow: the agent rejects permissionDecision "allow" (Codex), so
	// an allow carries only its context.
	BareAllow bool
	// DenyJSON: deny as exit 0 with the shared JSON deny, which reaches the
	// model where exit 2 loses the reason (Copilot CLI running Claude-shaped
	// hooks).
	DenyJSON bool
	// ViolationJSON: a violation after the tool (PostToolUse,
	// PostToolUseFailure) as exit 0 with {"decision":"block","reason"} and
	// the Warning as systemMessage: the model reads the reason as it reads
	// exit 2's stderr, and the person sees the warning, which exit 2 would
	// not show (Claude Code 2.1.330, live).
	ViolationJSON bool
	// Events maps hook events to the names the agent's answers carry.
	Events map[string]string
}

type specific struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	AdditionalContext        string `json:"additionalContext,omitempty"`
}

// permission is the answer to the host's own permission question
// (PermissionRequest): allow or deny, never a changed input.
type permission struct {
	HookEventName string `json:"hookEventName"`
	Decision      struct {
		Behavior string `json:"behavior"`
		Message  string `json:"message,omitempty"`
	} `json:"decision"`
}

type output struct {
	Decision           string    `json:"decision,omitempty"`
	Reason             string    `json:"reason,omitempty"`
	HookSpecificOutput *specific `json:"hookSpecificOutput,omitempty"`
	SystemMessage      string    `json:"systemMessage,omitempty"`
}

// Encode renders d as the answer to c.
func (dl Dialect) Encode(c *hook.Call, d hook.Decision, budget int) hook.Answer {
	return dl.EncodeEvent(c.Event, d, budget)
}

// EncodeEvent renders d as the answer to an event of the given kind.
func (dl Dialect) EncodeEvent(event string, d hook.Decision, budget int) hook.Answer {
	if dl.NoAsk && d.Verdict == hook.Ask {
		d = AskAsDeny(d, dl.Title)
	}
	var a hook.Answer
	a.Stderr = notes(d.Notes)
	name := event
	if n, ok := dl.Events[event]; ok {
		name = n
	}
	if event == hook.PermissionRequest {
		return dl.permissionAnswer(a, name, d, budget)
	}
	if d.Verdict == hook.Deny || d.Violation {
		if dl.DenyJSON && d.Verdict == hook.Deny && event == hook.PreToolUse {
			reason := hook.Clip(d.Message, budget)
			a.Stdout = output{Decision: "block", Reason: reason, HookSpecificOutput: &specific{
				HookEventName: name, PermissionDecision: "deny", PermissionDecisionReason: reason,
			}}.json()
			return a
		}
		if dl.ViolationJSON && d.Violation && (event == hook.PostToolUse || event == hook.PostToolUseFailure) {
			a.Stdout = output{Decision: "block", Reason: hook.Clip(d.Message, budget), SystemMessage: hook.Clip(d.Warning, budget)}.json()
			return a
		}
		a.Exit = 2
		a.Stderr = hook.Clip(d.Message+"\n"+a.Stderr, budget)
		if !strings.HasSuffix(a.Stderr, "\n") {
			a.Stderr += "\n"
		}
		return a
	}
	out := output{SystemMessage: hook.Clip(d.Warning, budget)}
	switch event {
	case hook.PreToolUse:
		switch {
		case d.Verdict == hook.Ask:
			out.HookSpecificOutput = &specific{HookEventName: name, PermissionDecision: "ask",
				PermissionDecisionReason: hook.Clip(d.Message, budget), AdditionalContext: hook.Clip(d.Context, budget)}
		case d.Verdict == hook.AllowWithContext && dl.BareAllow:
			if d.Context != "" {
				out.HookSpecificOutput = &specific{HookEventName: name, AdditionalContext: hook.Clip(d.Context, budget)}
			}
		case d.Verdict == hook.AllowWithContext:
			out.HookSpecificOutput = &specific{HookEventName: name, PermissionDecision: "allow",
				PermissionDecisionReason: hook.Clip(d.Message, budget), AdditionalContext: hook.Clip(d.Context, budget)}
		}
	case hook.SessionStart, hook.SubagentStart, hook.UserPromptSubmit, hook.PostToolUse:
		if d.Context != "" {
			out.HookSpecificOutput = &specific{HookEventName: name, AdditionalContext: hook.Clip(d.Context, budget)}
		}
	}
	if out.HookSpecificOutput != nil || out.SystemMessage != "" {
		a.Stdout = out.json()
	}
	return a
}

// permissionAnswer answers a PermissionRequest, always with exit 0 (the
// hosts do not read exit 2 there): a person's allow or deny as the
// prompt's answer, anything else as no answer, so that the host's own
// prompt shows.
func (dl Dialect) permissionAnswer(a hook.Answer, name string, d hook.Decision, budget int) hook.Answer {
	var p permission
	p.HookEventName = name
	switch d.Verdict {
	case hook.Deny:
		p.Decision.Behavior, p.Decision.Message = "deny", hook.Clip(d.Message, budget)
	case hook.AllowWithContext:
		p.Decision.Behavior = "allow"
	default:
		return a
	}
	a.Stdout = JSON(struct {
		HookSpecificOutput permission `json:"hookSpecificOutput"`
	}{p})
	return a
}

// CodeApprovalRequired is the deny code of an ask that carries no code of
// its own, for an agent that cannot ask its user from a hook.
const CodeApprovalRequired = "approval_required"

// AskAsDeny turns an ask into a deny for an agent that cannot ask its user
// from a hook: the model reads why, and that a person must decide.
func AskAsDeny(d hook.Decision, title string) hook.Decision {
	first, rest, _ := strings.Cut(d.Message, "\n")
	first = strings.TrimPrefix(first, "intenthook: ")
	code := d.Code
	if code == "" {
		code = CodeApprovalRequired
	}
	msg := "intenthook: deny [" + code + "] " + first
	if rest != "" {
		msg += "\n" + rest
	}
	if !strings.Contains(rest, "\ninstead: ") && !strings.HasPrefix(rest, "instead: ") {
		who := title
		if who == "" {
			who = "this agent"
		}
		msg += "\ninstead: this needs a person's approval, and " + who + " cannot ask for it from a hook: stop and ask the user to approve it or to do it themselves"
	}
	return hook.Decision{Verdict: hook.Deny, Code: code, Message: msg, Notes: d.Notes}
}

// json is JSON(o), written field by field: a selection's answer is
// encoded on every selection, and encoding/json's first use costs a new
// process more than the rest of the answer (TestOutputJSON).
func (o output) json() string {
	b := make([]byte, 0, 64+len(o.Reason)+len(o.SystemMessage)+o.HookSpecificOutput.size())
	b = append(b, '{')
	b = member(b, "decision", o.Decision)
	b = member(b, "reason", o.Reason)
	if h := o.HookSpecificOutput; h != nil {
		b = sep(b)
		b = append(b, `"hookSpecificOutput":{"hookEventName":`...)
		b = jsontext.AppendString(b, h.HookEventName)
		b = member(b, "permissionDecision", h.PermissionDecision)
		b = member(b, "permissionDecisionReason", h.PermissionDecisionReason)
		b = member(b, "additionalContext", h.AdditionalContext)
		b = append(b, '}')
	}
	b = member(b, "systemMessage", o.SystemMessage)
	return string(append(b, '}', '\n'))
}

func (h *specific) size() int {
	if h == nil {
		return 0
	}
	return 128 + len(h.PermissionDecisionReason) + len(h.AdditionalContext)
}

// member appends an omitempty string member of an object b has opened.
func member(b []byte, key, value string) []byte {
	if value == "" {
		return b
	}
	b = sep(b)
	b = append(append(append(b, '"'), key...), '"', ':')
	return jsontext.AppendString(b, value)
}

// sep appends the comma before a member that is not an object's first.
func sep(b []byte) []byte {
	if b[len(b)-1] != '{' {
		b = append(b, ',')
	}
	return b
}

// JSON encodes v on one line with a final newline, keeping < and > as they
// are (contexts are XML the model reads).
func JSON(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return b.String()
}

func notes(ns []string) string {
	if len(ns) == 0 {
		return ""
	}
	return strings.Join(ns, "\n") + "\n"
}
