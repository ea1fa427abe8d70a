package protocol

import (
	"reflect"
	"testing"

	"github.com/intenthook/intenthook/internal/hook"
)

func TestDecodeClaudeShaped(t *testing.T) {
	for _, tt := range []struct {
		name, event, payload string
		want                 hook.Call
	}{
		{"every field", hook.PostToolUse,
			`{"hook_event_name":"PostToolUseFailure","session_id":"s","agent_id":"a","agent_type":"Explore","transcript_path":"/t.jsonl","cwd":"/w","model":"m","source":"resume","prompt":"p","tool_name":"Bash","tool_use_id":"u","error":"e","tool_input":{"command":"ls"}}`,
			hook.Call{Agent: "x", Event: "PostToolUseFailure", SessionID: "s", AgentID: "a", AgentType: "Explore", TranscriptPath: "/t.jsonl", Cwd: "/w",
				Model: "m", Source: "resume", Prompt: "p", ToolName: "Bash", ToolUseID: "u", Error: "e"}},
		{"no event name: the command's", hook.PreToolUse, `{"session_id":"s","tool_name":"Edit"}`,
			hook.Call{Agent: "x", Event: hook.PreToolUse, SessionID: "s", ToolName: "Edit"}},
		{"fields of other types read as absent", hook.PreToolUse, `{"session_id":7,"cwd":null,"model":{"id":"m"}}`,
			hook.Call{Agent: "x", Event: hook.PreToolUse}},
	} {
		ev, err := ParseObject([]byte(tt.payload))
		if err != nil {
			t.Fatal(err)
		}
		if got := DecodeClaudeShaped("x", ev, tt.event); !reflect.DeepEqual(*got, tt.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, *got, tt.want)
		}
	}
}
