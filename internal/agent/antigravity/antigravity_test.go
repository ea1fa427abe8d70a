package antigravity

import (
	"testing"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/hook"
)

// TestDecodeEvent: the payload names no event: a call's is the hook
// command's, but context's, which is wired to Stop only, is Stop; a step's
// index with the conversation pairs a call's before- and after-event
// whether protojson wrote it as a number or a string.
func TestDecodeEvent(t *testing.T) {
	tests := []struct {
		payload, event, want, id string
	}{
		{`{"conversationId":"c1","stepIdx":4,"toolCall":{"name":"run_command","args":{"CommandLine":"ls"}},"workspacePaths":["/w"]}`, hook.PreToolUse, hook.PreToolUse, "c1:4"},
		{`{"conversationId":"c1","stepIdx":"4","toolCall":{"name":"run_command","args":{"CommandLine":"ls"}},"workspacePaths":["/w"],"error":""}`, hook.PostToolUse, hook.PostToolUse, "c1:4"},
		{`{"conversationId":"c1","transcriptPath":"/h/t.pb","workspacePaths":["/w"]}`, hook.SessionStart, hook.Stop, ""},
	}
	for _, tt := range tests {
		ev, err := protocol.ParseObject([]byte(tt.payload))
		if err != nil {
			t.Fatal(err)
		}
		c, err := Decode(ev, tt.event)
		if err != nil {
			t.Fatal(err)
		}
		if c.Event != tt.want || c.ToolUseID != tt.id || c.SessionID != "c1" || c.Cwd != "/w" {
			t.Errorf("%s as %s: event %s, id %q, session %q, cwd %q", tt.payload, tt.event, c.Event, c.ToolUseID, c.SessionID, c.Cwd)
		}
	}
}
