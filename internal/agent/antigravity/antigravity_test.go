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
	// The Gemini API remote agent's shape (documentation only): tool_call
	// {name, args}, no conversation.
	ev, err := protocol.ParseObject([]byte(`{"tool_call":{"name":"write_to_file","args":{"TargetFile":"/w/src/a.go","CodeContent":"x"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := Decode(ev, hook.PreToolUse); c.ToolName != "write_to_file" || c.Class != hook.ClassWrite || len(c.Paths) != 1 || c.SessionID != "" {
		t.Errorf("remote shape: %+v", c)
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

// TestAllowed: the written-out answer to an allow is the encoder's, and
// an allow with context still carries it as the reason.
func TestAllowed(t *testing.T) {
	if want := protocol.JSON(answer{Decision: "allow"}); allowed != want {
		t.Errorf("allowed = %q, the encoder gives %q", allowed, want)
	}
	call := &hook.Call{Event: hook.PreToolUse}
	if got := Encode(call, hook.Decision{}, 1000); got.Stdout != allowed || got.Exit != 0 {
		t.Errorf("an allow answers %+v", got)
	}
	if got := Encode(call, hook.Decision{Context: "INT-001 selected"}, 1000); got.Stdout != `{"decision":"allow","reason":"INT-001 selected"}`+"\n" {
		t.Errorf("an allow with context answers %q", got.Stdout)
	}
}

// TestAnswers: a 1.2.x CLI reads {} before a tool, and no answer at all,
// as a refusal (luisgamas/uxnan#245, akasecurity/ai-tc#187): before a tool
// every answer carries a decision, never {}; after one a call that passed
// is answered exactly {}, a violation with a deny; Stop says nothing.
func TestAnswers(t *testing.T) {
	pre, post, stop := &hook.Call{Event: hook.PreToolUse}, &hook.Call{Event: hook.PostToolUse}, &hook.Call{Event: hook.Stop}
	for _, tt := range []struct {
		name string
		call *hook.Call
		d    hook.Decision
		want string
	}{
		{"pre, allowed", pre, hook.Decision{}, `{"decision":"allow"}` + "\n"},
		{"pre, a warning only", pre, hook.Decision{Warning: "w"}, `{"decision":"allow"}` + "\n"},
		{"pre, denied", pre, hook.Decision{Verdict: hook.Deny, Message: "no"}, `{"decision":"deny","reason":"no"}` + "\n"},
		{"post, passed", post, hook.Decision{}, "{}\n"},
		{"post, with notes", post, hook.Decision{Notes: []string{"n"}}, "{}\n"},
		{"post, a violation", post, hook.Decision{Violation: true, Message: "restored"}, `{"decision":"deny","reason":"restored"}` + "\n"},
		{"stop", stop, hook.Decision{}, ""},
	} {
		got := Encode(tt.call, tt.d, 1000)
		if got.Stdout != tt.want || got.Exit != 0 {
			t.Errorf("%s: %q exit %d, want %q exit 0", tt.name, got.Stdout, got.Exit, tt.want)
		}
	}
	if !Agent().AnswerAlways {
		t.Error("AnswerAlways is off: an ungoverned call would get no answer, a refusal to 1.2.x")
	}
}

// TestVersionCheck: doctor's line for the installed CLI by version range:
// 1.1.26–1.1.27 fail as hooks that do not run (after the fact), 1.2 and
// later pass, earlier ones and an unknown version warn.
func TestVersionCheck(t *testing.T) {
	env := func(out string, err error) protocol.CheckEnv {
		return protocol.CheckEnv{
			LookPath: func(string) (string, error) { return "/bin/agy", nil },
			Output:   func(string, ...string) (string, error) { return out, err },
		}
	}
	for _, tt := range []struct {
		out    string
		status protocol.Status
		name   string
	}{
		{"1.0.5", protocol.Warn, "antigravity version"},
		{"agy version 1.1.25", protocol.Warn, "antigravity version"},
		{"1.1.26", protocol.Fail, "antigravity hooks run"},
		{"Antigravity CLI v1.1.27 (abc)", protocol.Fail, "antigravity hooks run"},
		{"1.1.28", protocol.Warn, "antigravity version"},
		{"1.2.0", protocol.Pass, "antigravity version"},
		{"1.2.7", protocol.Pass, "antigravity version"},
		{"2.0.1", protocol.Pass, "antigravity version"},
		{"unknown", protocol.Warn, "antigravity version"},
	} {
		c := versionCheck(env(tt.out, nil))
		if c.Status != tt.status || c.Name != tt.name {
			t.Errorf("%q: %s %s, want %s %s", tt.out, c.Status, c.Name, tt.status, tt.name)
		}
	}
	if c := versionCheck(protocol.CheckEnv{}); c.Status != protocol.Warn {
		t.Errorf("no agy: %s", c.Status)
	}
	c := versionCheck(env("1.1.26", nil))
	if g, _, _ := protocol.GradeOf(Agent(), []protocol.Check{c}); g != protocol.AfterTheFact {
		t.Errorf("1.1.26 grades %s, want after the fact", g)
	}
}

func TestParseVersion(t *testing.T) {
	for in, want := range map[string]string{
		"1.2.7": "1.2.7", "agy 1.1.26": "1.1.26", "v1.10.0 (abc 2.3)": "1.10.0", "build 12 1.2.3": "1.2.3",
		"1.2": "", "": "", "x.y.z": "", "1.2.x 3.4.5": "3.4.5",
	} {
		v, ok := parseVersion(in)
		if got := map[bool]string{true: v.String(), false: ""}[ok]; got != want {
			t.Errorf("parseVersion(%q) = %q, want %q", in, got, want)
		}
	}
}
