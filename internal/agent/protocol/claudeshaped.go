package protocol

import "github.com/intenthook/intenthook/internal/hook"

// DecodeClaudeShaped reads the fields of an event in Claude Code's shape, which
// several agents send under the same names: hook_event_name (event when the
// payload names none), session_id, agent_id, agent_type, transcript_path,
// cwd, model, source, prompt, tool_name, tool_use_id and error. An agent's
// Decode starts from it and reads the tool's input and response itself; a
// field the agent does not send reads as empty.
func DecodeClaudeShaped(agent string, ev Object, event string) *hook.Call {
	c := &hook.Call{
		Agent:          agent,
		Event:          ev.Str("hook_event_name"),
		SessionID:      ev.Str("session_id"),
		AgentID:        ev.Str("agent_id"),
		AgentType:      ev.Str("agent_type"),
		TranscriptPath: ev.Str("transcript_path"),
		Cwd:            NativePath(ev.Str("cwd")),
		Model:          ev.Str("model"),
		Source:         ev.Str("source"),
		Prompt:         ev.Str("prompt"),
		ToolName:       ev.Str("tool_name"),
		ToolUseID:      ev.Str("tool_use_id"),
		Error:          ev.Str("error"),
	}
	if c.Event == "" {
		c.Event = event
	}
	return c
}
