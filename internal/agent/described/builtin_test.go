package described

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sample is one event an agent sends, as its documentation shows it, and
// what intenthook must read from it.
type sample struct {
	what    string
	event   string
	class   hook.Class
	paths   []string
	command string
	session string
	// unparsed: the call is one the gate denies target_unknown.
	unparsed bool
}

// samples are each shipped agent's events: an edit in scope (allowed by
// the gate), a write out of it (denied in the agent's format, below), a
// shell call, a multi-file or multi-edit call where the agent has one, and
// a call whose input lacks the field a description names.
var samples = map[string][]sample{
	"qoder": {
		{`{"session_id":"q1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"/w/src/a.go","old_string":"a","new_string":"b"},"tool_use_id":"t1"}`, hook.PreToolUse, hook.ClassWrite, []string{"/w/src/a.go"}, "", "q1", false},
		{`{"session_id":"q1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/w/docs/x.md","content":"x"}}`, hook.PreToolUse, hook.ClassWrite, []string{"/w/docs/x.md"}, "", "q1", false},
		{`{"session_id":"q1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo x > docs/x.md"}}`, hook.PreToolUse, hook.ClassShell, nil, "echo x > docs/x.md", "q1", false},
		{`{"session_id":"q1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"MultiEdit","tool_input":{"file_path":"/w/src/a.go","edits":[{"old_string":"a","new_string":"b"}]}}`, hook.PreToolUse, hook.ClassWrite, []string{"/w/src/a.go"}, "", "q1", false},
		{`{"session_id":"q1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"cmd":"rm -rf src"}}`, hook.PreToolUse, hook.ClassWrite, nil, "", "q1", true},
	},
	"codebuddy": {
		{`{"session_id":"c1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"/w/src/a.go","old_string":"a","new_string":"b"}}`, hook.PreToolUse, hook.ClassWrite, []string{"/w/src/a.go"}, "", "c1", false},
		{`{"session_id":"c1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"touch docs/x.md"}}`, hook.PreToolUse, hook.ClassShell, nil, "touch docs/x.md", "c1", false},
		{`{"session_id":"c1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"MultiEdit","tool_input":{"file_path":"/w/docs/x.md","edits":[]}}`, hook.PreToolUse, hook.ClassWrite, []string{"/w/docs/x.md"}, "", "c1", false},
		{`{"session_id":"c1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"path":"/w/docs/x.md"}}`, hook.PreToolUse, hook.ClassWrite, nil, "", "c1", true},
	},
	"iflow": {
		{`{"session_id":"i1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"replace","tool_input":{"file_path":"/w/src/a.go","old_string":"a","new_string":"b"}}`, hook.PreToolUse, hook.ClassWrite, []string{"/w/src/a.go"}, "", "i1", false},
		{`{"session_id":"i1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{"command":"echo x > x.md","directory":"docs"}}`, hook.PreToolUse, hook.ClassShell, nil, "echo x > x.md", "i1", false},
		{`{"session_id":"i1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"write_file","tool_input":{"file_path":"/w/docs/x.md","content":"x"}}`, hook.PreToolUse, hook.ClassWrite, []string{"/w/docs/x.md"}, "", "i1", false},
	},
	"kiro": {
		{`{"hook_event_name":"preToolUse","cwd":"/w","tool_name":"fs_write","tool_input":{"command":"str_replace","path":"/w/src/a.go","old_str":"a","new_str":"b"}}`, hook.PreToolUse, hook.ClassWrite, []string{"/w/src/a.go"}, "", "", false},
		{`{"hook_event_name":"preToolUse","cwd":"/w","tool_name":"fs_write","tool_input":{"command":"create","path":"/w/docs/x.md","file_text":"x"}}`, hook.PreToolUse, hook.ClassWrite, []string{"/w/docs/x.md"}, "", "", false},
		{`{"hook_event_name":"preToolUse","cwd":"/w","tool_name":"execute_bash","tool_input":{"command":"echo x > docs/x.md"}}`, hook.PreToolUse, hook.ClassShell, nil, "echo x > docs/x.md", "", false},
		{`{"hook_event_name":"postToolUse","cwd":"/w","tool_name":"fs_write","tool_input":{"command":"create","path":"/w/src/a.go","file_text":"x"},"tool_response":{"success":true}}`, hook.PostToolUse, hook.ClassWrite, []string{"/w/src/a.go"}, "", "", false},
		{`{"hook_event_name":"agentSpawn","cwd":"/w"}`, hook.SessionStart, "", nil, "", "", false},
	},
	"grok": {
		{`{"hookEventName":"PreToolUse","sessionId":"g1","workspaceRoot":"/w","toolName":"search_replace","toolInput":{"file_path":"/w/src/a.go","old_string":"a","new_string":"b"}}`, hook.PreToolUse, hook.ClassWrite, []string{"/w/src/a.go"}, "", "g1", false},
		{`{"hookEventName":"PreToolUse","sessionId":"g1","workspaceRoot":"/w","toolName":"write","toolInput":{"path":"/w/docs/x.md","content":"x"}}`, hook.PreToolUse, hook.ClassWrite, []string{"/w/docs/x.md"}, "", "g1", false},
		{`{"hookEventName":"PreToolUse","sessionId":"g1","workspaceRoot":"/w","toolName":"run_terminal_command","toolInput":{"command":"echo x > docs/x.md"}}`, hook.PreToolUse, hook.ClassShell, nil, "echo x > docs/x.md", "g1", false},
		{`{"hookEventName":"PreToolUse","sessionId":"g1","workspaceRoot":"/w","toolName":"run_terminal_command","toolInput":{"cmd":"echo x > docs/x.md"}}`, hook.PreToolUse, hook.ClassWrite, nil, "", "g1", true},
	},
	"devin": {
		{`{"session_id":"d1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"edit","tool_input":{"file_path":"/w/src/a.go","old_string":"a","new_string":"b"}}`, hook.PreToolUse, hook.ClassWrite, []string{"/w/src/a.go"}, "", "d1", false},
		{`{"session_id":"d1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"exec","tool_input":{"command":"echo x > docs/x.md"}}`, hook.PreToolUse, hook.ClassShell, nil, "echo x > docs/x.md", "d1", false},
		{`{"session_id":"d1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"multi_edit","tool_input":{"file_path":"/w/docs/x.md","edits":[]}}`, hook.PreToolUse, hook.ClassWrite, []string{"/w/docs/x.md"}, "", "d1", false},
	},
	"openhands": {
		{`{"session_id":"o1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"file_editor","tool_input":{"command":"str_replace","path":"/w/src/a.go","old_str":"a","new_str":"b"}}`, hook.PreToolUse, hook.ClassWrite, []string{"/w/src/a.go"}, "", "o1", false},
		{`{"session_id":"o1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"file_editor","tool_input":{"command":"view","path":"/w/docs/x.md"}}`, hook.PreToolUse, hook.ClassRead, []string{"/w/docs/x.md"}, "", "o1", false},
		{`{"session_id":"o1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"file_editor","tool_input":{"command":"create","path":"/w/docs/x.md","file_text":"x"}}`, hook.PreToolUse, hook.ClassWrite, []string{"/w/docs/x.md"}, "", "o1", false},
		{`{"session_id":"o1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"terminal","tool_input":{"command":"echo x > docs/x.md","is_input":false}}`, hook.PreToolUse, hook.ClassShell, nil, "echo x > docs/x.md", "o1", false},
	},
	"goose": {
		{`{"event":"PreToolUse","session_id":"go1","cwd":"/w","tool_name":"developer__text_editor","tool_input":{"command":"str_replace","path":"/w/src/a.go","old_str":"a","new_str":"b"}}`, hook.PreToolUse, hook.ClassWrite, []string{"/w/src/a.go"}, "", "go1", false},
		{`{"event":"PreToolUse","session_id":"go1","cwd":"/w","tool_name":"developer__text_editor","tool_input":{"command":"write","path":"/w/docs/x.md","file_text":"x"}}`, hook.PreToolUse, hook.ClassWrite, []string{"/w/docs/x.md"}, "", "go1", false},
		{`{"event":"PreToolUse","session_id":"go1","working_dir":"/w","tool_call_id":"call_1","tool_name":"developer__shell","tool_input":{"command":"echo x > docs/x.md"}}`, hook.PreToolUse, hook.ClassShell, nil, "echo x > docs/x.md", "go1", false},
		{`{"event":"PreToolUse","session_id":"go1","cwd":"/w","tool_name":"developer__text_editor","tool_input":{"command":"view","path":"/w/docs/x.md"}}`, hook.PreToolUse, hook.ClassRead, []string{"/w/docs/x.md"}, "", "go1", false},
	},
	"kimi": {
		{`{"session_id":"k1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"StrReplaceFile","tool_input":{"path":"/w/src/a.go","edit":{"old":"a","new":"b"}},"tool_call_id":"tc1"}`, hook.PreToolUse, hook.ClassWrite, []string{"/w/src/a.go"}, "", "k1", false},
		{`{"session_id":"k1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"WriteFile","tool_input":{"path":"/w/docs/x.md","content":"x"},"tool_call_id":"tc2"}`, hook.PreToolUse, hook.ClassWrite, []string{"/w/docs/x.md"}, "", "k1", false},
		{`{"session_id":"k1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Shell","tool_input":{"command":"echo x > docs/x.md"},"tool_call_id":"tc3"}`, hook.PreToolUse, hook.ClassShell, nil, "echo x > docs/x.md", "k1", false},
	},
	// Junie CLI: Claude's payload with the workspace in project_path and
	// cwd its own home (GitGuardian/ggshield#1451, 2026-09-08).
	"junie": {
		{`{"hook_event_name":"PreToolUse","session_id":"j1","cwd":"/home/u/.junie","project_path":"/w","tool_name":"Write","tool_input":{"file_path":"/w/docs/x.md","content":"x"}}`, hook.PreToolUse, hook.ClassWrite, []string{"/w/docs/x.md"}, "", "j1", false},
		{`{"hook_event_name":"PreToolUse","session_id":"j1","cwd":"/home/u/.junie","project_path":"/w","tool_name":"Edit","tool_input":{"file_path":"/w/src/a.go","old_string":"a","new_string":"b"}}`, hook.PreToolUse, hook.ClassWrite, []string{"/w/src/a.go"}, "", "j1", false},
		{`{"hook_event_name":"PreToolUse","session_id":"j1","cwd":"/home/u/.junie","project_path":"/w","tool_name":"Bash","tool_input":{"command":"echo x > docs/x.md"}}`, hook.PreToolUse, hook.ClassShell, nil, "echo x > docs/x.md", "j1", false},
		{`{"hook_event_name":"PreToolUse","session_id":"j1","cwd":"/home/u/.junie","project_path":"/w","tool_name":"open_entire_file","tool_input":{"file_path":"/w/src/a.go"}}`, hook.PreToolUse, hook.ClassRead, []string{"/w/src/a.go"}, "", "j1", false},
		{`{"hook_event_name":"PreToolUse","session_id":"j1","cwd":"/home/u/.junie","project_path":"/w","tool_name":"Write","tool_input":{"content":"x"}}`, hook.PreToolUse, hook.ClassWrite, nil, "", "j1", true},
	},
}

// denyFormat is how each agent must read a deny of a write out of scope.
var denyFormat = map[string]func(a hook.Answer) bool{
	"qoder":     exit2,
	"codebuddy": exit2,
	"iflow":     exit2,
	"kiro":      exit2,
	"devin":     exit2,
	"openhands": exit2,
	"goose":     exit2,
	"kimi":      exit2,
	"junie":     decisionDeny,
	"grok":      decisionDeny,
}

func decisionDeny(a hook.Answer) bool {
	var out map[string]string
	return a.Exit == 0 && json.Unmarshal([]byte(a.Stdout), &out) == nil && out["decision"] == "deny" && strings.Contains(out["reason"], "[scope_violation]")
}

func exit2(a hook.Answer) bool {
	return a.Exit == 2 && a.Stdout == "" && strings.Contains(a.Stderr, "[scope_violation]")
}

func TestBuiltinSamples(t *testing.T) {
	for _, b := range Builtins() {
		ss, ok := samples[b.Name]
		if !ok {
			t.Errorf("%s: no sample events", b.Name)
			continue
		}
		a := b.Agent()
		for i, s := range ss {
			ev, err := protocol.ParseObject([]byte(s.what))
			if err != nil {
				t.Fatalf("%s #%d: %v", b.Name, i, err)
			}
			c, err := a.Decode(ev, hook.PreToolUse)
			if err != nil {
				t.Fatalf("%s #%d: %v", b.Name, i, err)
			}
			if c.Event != s.event || c.Class != s.class || !slices.Equal(c.Paths, s.paths) || c.Command != s.command || (s.session != "" && c.SessionID != s.session) || (c.Unparsed != "") != s.unparsed {
				t.Errorf("%s #%d: %s %s paths %q command %q session %q unparsed %q", b.Name, i, c.Event, c.Class, c.Paths, c.Command, c.SessionID, c.Unparsed)
			}
		}
		deny := hook.Decision{Verdict: hook.Deny, Code: "scope_violation", Message: `intenthook: deny [scope_violation] Write to "docs/x.md"`}
		ans := a.Encode(&hook.Call{Event: hook.PreToolUse}, deny, 4096)
		if !denyFormat[b.Name](ans) {
			t.Errorf("%s: a deny reads %+v", b.Name, ans)
		}
		// No agent of these may answer an allow with anything the agent
		// would take for a decision.
		if ans := a.Encode(&hook.Call{Event: hook.PreToolUse}, hook.Decision{}, 4096); ans.Exit != 0 || ans.Stdout != "" {
			t.Errorf("%s: a plain allow reads %+v", b.Name, ans)
		}
	}
}

// TestSchema holds every shipped description, and the docs' example, to
// docs/agent.schema.json, and the schema to Parse: a description the
// schema refuses, Parse refuses too.
func TestSchema(t *testing.T) {
	c := jsonschema.NewCompiler()
	sch, err := c.Compile(filepath.Join("..", "..", "..", "docs", "agent.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	validate := func(name string, data []byte) error {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(data)))
		if err != nil {
			return err
		}
		return sch.Validate(v)
	}
	for _, b := range Builtins() {
		data, _ := BuiltinSource(b.Name)
		if err := validate(b.Name, data); err != nil {
			t.Errorf("%s: %v", b.Name, err)
		}
	}
	bad := map[string]string{
		"unknown key":      `{"name":"x","settings":{"project":".x/s.json"},"events":{"pre":"P"},"tools":{"W":{"class":"write","path":"p"}},"colour":"red"}`,
		"write, no path":   `{"name":"x","settings":{"project":".x/s.json"},"events":{"pre":"P"},"tools":{"W":{"class":"write"}}}`,
		"unknown class":    `{"name":"x","settings":{"project":".x/s.json"},"events":{"pre":"P"},"tools":{"W":{"class":"writes","path":"p"}}}`,
		"no pre":           `{"name":"x","settings":{"project":".x/s.json"},"events":{"post":"P"},"tools":{"W":{"class":"write","path":"p"}}}`,
		"outside the root": `{"name":"x","settings":{"project":"../s.json"},"events":{"pre":"P"},"tools":{"W":{"class":"write","path":"p"}}}`,
		"bad answer":       `{"name":"x","settings":{"project":".x/s.json"},"events":{"pre":"P"},"tools":{"W":{"class":"write","path":"p"}},"answer":"json"}`,
	}
	for what, data := range bad {
		if _, err := Parse([]byte(data)); err == nil {
			t.Errorf("%s: Parse accepted it", what)
		}
		if err := validate(what, []byte(data)); err == nil {
			t.Errorf("%s: the schema accepted it", what)
		}
	}
}

// TestLoad: a workspace description is the file's own parse on every
// load: an edit is read on the next load, and a cache file beside it (an
// older intenthook's agents.cache, or one a program forged to turn the write
// tool into a read) is never read.
func TestLoad(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".orchestration", "agents")
	if err := os.MkdirAll(filepath.Join(root, ".orchestration", "state"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	desc := `{"name":"acme","settings":{"project":".acme/h.json"},"events":{"pre":"Pre"},"tools":{"put":{"class":"write","path":"file"},"run":{"class":"shell"},"look":{"class":"read","path":"file"}}}`
	if err := os.WriteFile(filepath.Join(dir, "acme.json"), []byte(desc), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Load(root, "acme")
	if err != nil || d.Tools[1].Name != "put" || d.Tools[1].Tool.Class != hook.ClassWrite || d.Tools[1].Tool.Path[0] != "file" || d.Events[RolePre] != "Pre" || len(d.Input["tool"]) != 1 {
		t.Fatalf("Load reads %+v, %v", d, err)
	}
	// What an older intenthook kept in state/agents.cache, forged: the
	// write tool a read, under the file's own digest.
	forged := *d
	forged.Tools = append([]NamedTool{}, d.Tools...)
	forged.Tools[1].Tool.Class = hook.ClassRead
	sum := sha256.Sum256([]byte(desc))
	entry := hex.EncodeToString(sum[:]) + "\n" + string(encode(&forged))
	cache := fmt.Sprintf("intenthook-agents-cache/4\nacme %d\n%s", len(entry), entry)
	if err := os.WriteFile(filepath.Join(root, ".orchestration", "state", "agents.cache"), []byte(cache), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := Load(root, "acme"); err != nil || got.Tools[1].Tool.Class != hook.ClassWrite {
		t.Fatalf("a forged cache was believed: %+v, %v", got, err)
	}
	// A person's edit is read on the next load.
	if err := os.WriteFile(filepath.Join(dir, "acme.json"), []byte(strings.Replace(desc, `"Pre"`, `"BeforeTool"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := Load(root, "acme"); err != nil || got.Events[RolePre] != "BeforeTool" {
		t.Fatalf("an edited description reads %+v, %v", got, err)
	}
	if _, err := Load(root, "nobody"); err == nil {
		t.Fatal("an absent description loaded")
	}
}

// TestSession: an agent without session ids is the process of its name
// nearest above the hook; here the test binary stands for the agent.
func TestSession(t *testing.T) {
	if _, _, _, ok := processInfo(os.Getpid()); !ok {
		t.Skip("no process tree here")
	}
	name, _, _, _ := processInfo(os.Getppid())
	if name == "" {
		t.Skip("parent without a name")
	}
	s := Session(name)
	if !strings.HasPrefix(s, name+"-") || strings.Count(s, "-") < 2 {
		t.Fatalf("Session(%q) = %q", name, s)
	}
	if Session(name) != s {
		t.Fatal("the session changed between calls")
	}
	if got := Session("no-such-agent-process"); got != "" {
		t.Fatalf("Session of a process that is not an ancestor = %q", got)
	}
}

// TestEncodeRoundTrip: every shipped description comes back from the
// cache's encoding as it was parsed.
func TestEncodeRoundTrip(t *testing.T) {
	for _, b := range Builtins() {
		data, _ := BuiltinSource(b.Name)
		d, err := Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decode(encode(d))
		if err != nil {
			t.Fatalf("%s: %v", b.Name, err)
		}
		if !reflect.DeepEqual(normal(got), normal(d)) {
			t.Errorf("%s: decoded %+v\nparsed %+v", b.Name, got, d)
		}
	}
}

// normal makes empty and absent lists and maps one.
func normal(d *Description) *Description {
	c := *d
	data, _ := json.Marshal(c)
	var out Description
	_ = json.Unmarshal(data, &out)
	return &out
}
