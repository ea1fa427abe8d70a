package claude

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/hook"
)

func TestDecode(t *testing.T) {
	orig := "package a\n"
	tests := []struct {
		name  string
		event string
		want  hook.Call
	}{
		{
			name:  "TV1 Bash PreToolUse",
			event: `{"session_id":"abc123","prompt_id":"550e8400-e29b-41d4-a716-446655440000","transcript_path":"/home/user/.claude/projects/.../transcript.jsonl","cwd":"/home/user/my-project","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"npm test","description":"Run test suite","timeout":120000,"run_in_background":false},"tool_use_id":"toolu_01ABC123..."}`,
			want:  hook.Call{Event: "PreToolUse", SessionID: "abc123", TranscriptPath: "/home/user/.claude/projects/.../transcript.jsonl", Cwd: "/home/user/my-project", ToolName: "Bash", ToolUseID: "toolu_01ABC123...", Command: "npm test"},
		},
		{
			name:  "Bash asking to leave the sandbox",
			event: `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"make","dangerouslyDisableSandbox":true},"tool_use_id":"tu"}`,
			want:  hook.Call{Event: "PreToolUse", SessionID: "s", ToolName: "Bash", ToolUseID: "tu", Command: "make", Unsandboxed: true},
		},
		{
			name:  "TV2 Windows Write with non-ASCII",
			event: `{"session_id":"6f2f","cwd":"D:\\work\\sample","hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"D:\\work\\jobs\\0042-見積り\\report.md","content":"# 調べたこと\n"},"tool_response":{"type":"create","filePath":"D:\\work\\jobs\\0042-見積り\\report.md","structuredPatch":[],"originalFile":null},"tool_use_id":"toolu_01ABC","duration_ms":42}`,
			want:  hook.Call{Event: "PostToolUse", SessionID: "6f2f", Cwd: protocol.NativePath(`D:\work\sample`), ToolName: "Write", ToolUseID: "toolu_01ABC", Paths: []string{protocol.NativePath(`D:\work\jobs\0042-見積り\report.md`)}, HasHunks: true},
		},
		{
			name:  "Edit response with hunks and original file",
			event: `{"hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"/p/a.go","old_string":"a","new_string":"b"},"tool_response":{"filePath":"/p/a.go","originalFile":"package a\n","structuredPatch":[{"oldStart":1,"oldLines":1,"newStart":1,"newLines":2,"lines":["-a","+b","+c"]}]}}`,
			want:  hook.Call{Event: "PostToolUse", ToolName: "Edit", Paths: []string{"/p/a.go"}, NewStrings: []string{"b"}, Hunks: []hook.Hunk{{NewStart: 1, NewLines: 2, Added: []hook.LineRun{{First: 1, Last: 2}}, HasLines: true}}, HasHunks: true, OriginalFile: &orig},
		},
		{
			name:  "notebook path, then path, then response filePath",
			event: `{"tool_name":"NotebookEdit","tool_input":{"notebook_path":"/p/n.ipynb","path":"/p/other"}}`,
			want:  hook.Call{ToolName: "NotebookEdit", Paths: []string{"/p/n.ipynb"}},
		},
		{
			name:  "subagent event names its type",
			event: `{"session_id":"s","agent_id":"a1","agent_type":"Explore","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/p/a"}}`,
			want:  hook.Call{Event: "PreToolUse", SessionID: "s", AgentID: "a1", AgentType: "Explore", ToolName: "Read", Paths: []string{"/p/a"}},
		},
		{
			name:  "spawning tool names the subagent type",
			event: `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Task","tool_use_id":"tu","tool_input":{"description":"d","prompt":"p","subagent_type":"general-purpose"}}`,
			want:  hook.Call{Event: "PreToolUse", SessionID: "s", ToolName: "Task", ToolUseID: "tu", SubagentType: "general-purpose"},
		},
		{
			name:  "path field (seed tools)",
			event: `{"tool_name":"write_to_file","tool_input":{"path":"src/a.ts"}}`,
			want:  hook.Call{ToolName: "write_to_file", Paths: []string{"src/a.ts"}},
		},
		{
			name:  "response filePath only",
			event: `{"tool_name":"Write","tool_response":{"filePath":"/p/x"}}`,
			want:  hook.Call{ToolName: "Write", Paths: []string{"/p/x"}},
		},
		{
			name:  "unix backslash kept",
			event: `{"tool_name":"Write","tool_input":{"file_path":"/p/a\\b.txt"}}`,
			want:  hook.Call{ToolName: "Write", Paths: []string{`/p/a\b.txt`}},
		},
		{
			name:  "failure event",
			event: `{"hook_event_name":"PostToolUseFailure","tool_name":"Write","tool_input":{"file_path":"/p/a"},"error":"EACCES"}`,
			want:  hook.Call{Event: "PostToolUseFailure", ToolName: "Write", Paths: []string{"/p/a"}, Failed: true, Error: "EACCES"},
		},
		{
			name:  "success false in response",
			event: `{"tool_name":"Write","tool_response":{"success":false,"error":"disk full"}}`,
			want:  hook.Call{ToolName: "Write", Failed: true, Error: "disk full", Unparsed: "the tool's input names no file"},
		},
		{
			name:  "Copilot CLI through Claude settings: Write with path and file_text",
			event: `{"hook_event_name":"PreToolUse","session_id":"3f6cf26a","timestamp":"2026-11-22T10:41:40.745Z","cwd":"/w","tool_name":"Write","tool_input":{"path":"/w/hello.txt","file_text":"hello\n"}}`,
			want:  hook.Call{Event: "PreToolUse", SessionID: "3f6cf26a", Cwd: "/w", ToolName: "Write", Paths: []string{"/w/hello.txt"}},
		},
		{
			name:  "Copilot CLI through Claude settings: Edit with old_str and new_str, tool_result",
			event: `{"hook_event_name":"PostToolUse","session_id":"3f","cwd":"/w","tool_name":"Edit","tool_input":{"path":"/w/hello.txt","old_str":"hello","new_str":"hello world"},"tool_result":{"result_type":"success","text_result_for_llm":"File /w/hello.txt updated with changes."}}`,
			want:  hook.Call{Event: "PostToolUse", SessionID: "3f", Cwd: "/w", ToolName: "Edit", Paths: []string{"/w/hello.txt"}, NewStrings: []string{"hello world"}},
		},
		{
			name:  "Copilot CLI through Claude settings: Edit carrying a bare patch",
			event: `{"hook_event_name":"PreToolUse","session_id":"3f","cwd":"/w","tool_name":"Edit","tool_input":"*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** Update File: a.go\n*** Move to: b.go\n*** End Patch\n"}`,
			want:  hook.Call{Event: "PreToolUse", SessionID: "3f", Cwd: "/w", ToolName: "Edit", Paths: []string{"hello.txt", "a.go", "b.go"}},
		},
		{
			name:  "an Edit whose input is a string but no patch: target unknown",
			event: `{"tool_name":"Edit","tool_input":"replace x with y"}`,
			want:  hook.Call{ToolName: "Edit", Unparsed: "not a patch: no \"*** Begin Patch\" line"},
		},
		{
			name:  "Copilot tool_result failure",
			event: `{"hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"path":"/w/a"},"tool_result":{"result_type":"failure","text_result_for_llm":"denied"}}`,
			want:  hook.Call{Event: "PostToolUse", ToolName: "Write", Paths: []string{"/w/a"}, Failed: true},
		},
		{
			name:  "wrong types read as absent",
			event: `{"session_id":42,"cwd":["x"],"tool_name":null,"tool_input":"nope","tool_response":7}`,
			want:  hook.Call{},
		},
		{
			name:  "select tool and MultiEdit new strings",
			event: `{"tool_name":"mcp__ih__select_active_intent","tool_input":{"intent_id":"INT-001","edits":[{"new_string":"x"},{"new_string":"y"}]}}`,
			want:  hook.Call{ToolName: "mcp__ih__select_active_intent", IntentID: "INT-001", NewStrings: []string{"x", "y"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decode(tt.event)
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Agent = Name
			tool, known := Tools().Lookup(tt.want.ToolName)
			tt.want.WholeFile = tool.WholeFile
			if tt.want.Class == "" {
				tt.want.Class = tool.Class
				if !known {
					tt.want.Class = protocol.Classify(tt.want.ToolName)
				}
			}
			got.Input = nil // the input as carried, for the tools: map
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", *got, tt.want)
			}
		})
	}
}

func TestDecodeBadInput(t *testing.T) {
	for _, in := range []string{"", "  \n", "null", "[]", `"x"`, "{", "not json", "{}{}"} {
		if _, err := decode(in); !errors.Is(err, protocol.ErrBadInput) {
			t.Errorf("Decode(%q) err = %v, want ErrBadInput", in, err)
		}
	}
	big := strings.NewReader(`{"a":"` + strings.Repeat("x", protocol.MaxEvent) + `"}`)
	if _, err := protocol.ReadEvent(big); !errors.Is(err, protocol.ErrBadInput) || !strings.Contains(err.Error(), "16 MiB") {
		t.Errorf("oversized event: %v", err)
	}
}

func TestEncode(t *testing.T) {
	tests := []struct {
		name   string
		event  string
		d      hook.Decision
		exit   int
		stdout string
		stderr string
	}{
		{"silent allow", hook.PreToolUse, hook.Decision{}, 0, "", ""},
		{"deny", hook.PreToolUse, hook.Decision{Verdict: hook.Deny, Message: "intenthook: deny [x] y"}, 2, "", "intenthook: deny [x] y\n"},
		{"ask", hook.PreToolUse, hook.Decision{Verdict: hook.Ask, Message: "why"}, 0,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"why"}}` + "\n", ""},
		{"allow with context", hook.PreToolUse, hook.Decision{Verdict: hook.AllowWithContext, Message: "ok", Context: "<a>&</a>"}, 0,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"ok","additionalContext":"<a>&</a>"}}` + "\n", ""},
		{"session start", hook.SessionStart, hook.Decision{Context: "c"}, 0,
			`{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"c"}}` + "\n", ""},
		// After the tool, a violation blocks through JSON: the reason
		// reaches the model as exit 2's stderr would, the warning the person.
		{"post violation", hook.PostToolUse, hook.Decision{Violation: true, Message: "intenthook: violation\nfiles:", Notes: []string{"n"}}, 0,
			`{"decision":"block","reason":"intenthook: violation\nfiles:"}` + "\n", "n\n"},
		{"post violation with warning", hook.PostToolUse, hook.Decision{Violation: true, Message: "intenthook: violation <x>", Warning: "intenthook put back a"}, 0,
			`{"decision":"block","reason":"intenthook: violation <x>","systemMessage":"intenthook put back a"}` + "\n", ""},
		{"failed tool's violation", hook.PostToolUseFailure, hook.Decision{Violation: true, Message: "v", Warning: "w"}, 0,
			`{"decision":"block","reason":"v","systemMessage":"w"}` + "\n", ""},
		// Before the tool a violation is still a deny's exit 2.
		{"pre violation", hook.PreToolUse, hook.Decision{Violation: true, Message: "v", Warning: "w"}, 2, "", "v\n"},
		{"warning", hook.PreToolUse, hook.Decision{Warning: "w", Notes: []string{"n"}}, 0, `{"systemMessage":"w"}` + "\n", "n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := Dialect.EncodeEvent(tt.event, tt.d, 9500)
			if a.Exit != tt.exit || a.Stdout != tt.stdout || a.Stderr != tt.stderr {
				t.Errorf("got %+v", a)
			}
			if a.Exit != 0 && a.Stdout != "" {
				t.Error("JSON with a non-zero exit")
			}
		})
	}
}

func TestEncodeBudget(t *testing.T) {
	long := strings.Repeat("é", 20000)
	a := Dialect.EncodeEvent(hook.PreToolUse, hook.Decision{Verdict: hook.AllowWithContext, Message: long, Context: long}, 9500)
	var out struct {
		H struct {
			Reason  string `json:"permissionDecisionReason"`
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(a.Stdout), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.H.Reason) > 9500 || len(out.H.Context) > 9500 || !strings.HasSuffix(out.H.Context, "(truncated)") {
		t.Errorf("reason %d bytes, context %d bytes", len(out.H.Reason), len(out.H.Context))
	}
}

// FuzzDecodeEvent: decoding never panics, and whatever decodes encodes to a
// valid answer.
func FuzzDecodeEvent(f *testing.F) {
	f.Add([]byte(`{"session_id":"abc123","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/p/a","content":"x"}}`))
	f.Add([]byte(`{"tool_response":{"structuredPatch":[{"newStart":1,"newLines":2}],"originalFile":null,"success":false}}`))
	f.Add([]byte(`{"tool_input":{"file_path":"C:\\x\\y","edits":[{"new_string":1}]}}`))
	f.Add([]byte(`[1,2]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := protocol.ParseObject(data)
		if err != nil {
			return
		}
		c, err := Decode(ev, hook.PreToolUse)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range c.Paths {
			if p == "" {
				t.Fatal("empty path decoded")
			}
		}
		a := Dialect.EncodeEvent(hook.PreToolUse, hook.Decision{Verdict: hook.AllowWithContext, Context: c.Command}, 100)
		if a.Stdout != "" && !json.Valid([]byte(a.Stdout)) {
			t.Fatalf("invalid JSON answer %q", a.Stdout)
		}
	})
}

// BenchmarkDecode is the decoding every hook call starts with.
func BenchmarkDecode(b *testing.B) {
	ev := []byte(`{"session_id":"6f2f2f1e-6c1e-4a6b-9d5c-2f0a5a1d3b77","transcript_path":"/home/u/.claude/projects/p/s.jsonl","cwd":"/home/u/p","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"/home/u/p/src/a.go","old_string":"a","new_string":"b"},"tool_use_id":"toolu_01ABC"}`)
	for i := 0; i < b.N; i++ {
		if _, err := decode(string(ev)); err != nil {
			b.Fatal(err)
		}
	}
}

func decode(event string) (*hook.Call, error) {
	ev, err := protocol.ParseObject([]byte(event))
	if err != nil {
		return nil, err
	}
	return Decode(ev, "")
}
