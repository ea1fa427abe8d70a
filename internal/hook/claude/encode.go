package claude

import (
	"encoding/json"
	"strings"

	"github.com/intenthook/intenthook/internal/hook"
)

// Answer is what the hook process prints and how it exits.
type Answer struct {
	Exit   int
	Stdout string
	Stderr string
}

type specific struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	AdditionalContext        string `json:"additionalContext,omitempty"`
}

type output struct {
	HookSpecificOutput *specific `json:"hookSpecificOutput,omitempty"`
	SystemMessage      string    `json:"systemMessage,omitempty"`
}

// Encode renders d as the answer to an event of the given kind. budget caps
// every string handed to Claude Code (it cuts strings at 10,000 characters).
func Encode(event string, d hook.Decision, budget int) Answer {
	var a Answer
	a.Stderr = notes(d.Notes)
	switch {
	case d.Verdict == hook.Deny || d.Violation:
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
		if d.Verdict == hook.Ask || d.Verdict == hook.AllowWithContext {
			out.HookSpecificOutput = &specific{
				HookEventName:            event,
				PermissionDecision:       map[hook.Verdict]string{hook.Ask: "ask", hook.AllowWithContext: "allow"}[d.Verdict],
				PermissionDecisionReason: hook.Clip(d.Message, budget),
				AdditionalContext:        hook.Clip(d.Context, budget),
			}
		}
	case hook.SessionStart, hook.UserPromptSubmit, hook.PostToolUse:
		if d.Context != "" {
			out.HookSpecificOutput = &specific{HookEventName: event, AdditionalContext: hook.Clip(d.Context, budget)}
		}
	}
	if out.HookSpecificOutput != nil || out.SystemMessage != "" {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		// The context is XML the model reads; keep < and > as they are.
		enc.SetEscapeHTML(false)
		_ = enc.Encode(out)
		a.Stdout = b.String()
	}
	return a
}

func notes(ns []string) string {
	if len(ns) == 0 {
		return ""
	}
	return strings.Join(ns, "\n") + "\n"
}
