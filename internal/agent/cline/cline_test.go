package cline

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/hook"
)

// TestDecodeCaptured decodes what Cline 3.0.65 sent the hooks init writes
// (testdata/agents/cline/README.md): its own hook names and tools, read
// from the call's input rather than the string-encoded parameters.
func TestDecodeCaptured(t *testing.T) {
	const task = "conv_1795376075984_8tk7wzw"
	tests := []struct {
		file, cmdEvent string // the file, and the event of the hook command that ran
		event          string
		class          hook.Class
		paths          []string
		command        string
	}{
		{"agent_start.json", hook.SessionStart, hook.SessionStart, "", nil, ""},
		{"tool_call-editor.json", hook.PreToolUse, hook.PreToolUse, hook.ClassWrite, []string{"/work/proj/hello.txt"}, ""},
		{"tool_result-editor.json", hook.PostToolUse, hook.PostToolUse, hook.ClassWrite, []string{"/work/proj/hello.txt"}, ""},
		{"tool_call-editor-2.json", hook.PreToolUse, hook.PreToolUse, hook.ClassWrite, []string{"/work/proj/hello.txt"}, ""},
		{"tool_call-read_files.json", hook.PreToolUse, hook.PreToolUse, hook.ClassRead, []string{"/work/proj/hello.txt"}, ""},
		{"tool_result-read_files.json", hook.PostToolUse, hook.PostToolUse, hook.ClassRead, []string{"/work/proj/hello.txt"}, ""},
		{"tool_call-run_commands.json", hook.PreToolUse, hook.PreToolUse, hook.ClassShell, nil, "echo shell > shell.txt"},
		{"tool_result-run_commands.json", hook.PostToolUse, hook.PostToolUse, hook.ClassShell, nil, "echo shell > shell.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "agents", "cline", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			ev, err := protocol.ParseObject(data)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Decode(ev, tt.cmdEvent)
			if err != nil {
				t.Fatal(err)
			}
			if c.Event != tt.event || c.Class != tt.class || c.SessionID != task || c.Cwd != "/work/proj" ||
				c.Command != tt.command || !reflect.DeepEqual(c.Paths, tt.paths) || c.Unparsed != "" || c.Failed {
				t.Errorf("got event=%s class=%s session=%s cwd=%s command=%q paths=%q unparsed=%q failed=%v",
					c.Event, c.Class, c.SessionID, c.Cwd, c.Command, c.Paths, c.Unparsed, c.Failed)
			}
		})
	}
}

// TestDecodeLists covers Cline 3's list inputs and the documented shape.
func TestDecodeLists(t *testing.T) {
	tests := []struct {
		name    string
		event   string
		class   hook.Class
		paths   []string
		command string
	}{
		{"several commands, each from the root", `{"hookName":"tool_call","taskId":"t","workspaceRoots":["/w"],"tool_call":{"name":"run_commands","input":{"commands":["cd docs","echo x > y.md"]}}}`,
			hook.ClassShell, nil, "(cd docs\n)\n(echo x > y.md\n)"},
		{"several files read", `{"hookName":"tool_call","taskId":"t","workspaceRoots":["/w"],"tool_call":{"name":"read_files","input":{"files":[{"path":"/w/a"},{"path":"/w/b","start_line":2}]}}}`,
			hook.ClassRead, []string{"/w/a", "/w/b"}, ""},
		{"editor inserting", `{"hookName":"tool_call","taskId":"t","workspaceRoots":["/w"],"tool_call":{"name":"editor","input":{"path":"/w/a","new_text":"x","insert_line":3}}}`,
			hook.ClassWrite, []string{"/w/a"}, ""},
		{"the documented shape still", `{"hookName":"PreToolUse","taskId":"t","workspaceRoots":["/w"],"preToolUse":{"toolName":"write_to_file","parameters":{"path":"src/a.ts","content":"x"}}}`,
			hook.ClassWrite, []string{"src/a.ts"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := protocol.ParseObject([]byte(tt.event))
			if err != nil {
				t.Fatal(err)
			}
			c, err := Decode(ev, hook.PreToolUse)
			if err != nil {
				t.Fatal(err)
			}
			if c.Event != hook.PreToolUse || c.Class != tt.class || c.Command != tt.command || !reflect.DeepEqual(c.Paths, tt.paths) {
				t.Errorf("got event=%s class=%s command=%q paths=%q", c.Event, c.Class, c.Command, c.Paths)
			}
		})
	}
}

// TestDecodePlugin: the session a plugin decides is named by its
// announcement and by the hook file's tool calls and results (a result
// tells whether the plugin gave the deny), never by the plugin's own calls
// (which must be decided) or by other events.
func TestDecodePlugin(t *testing.T) {
	for _, tc := range []struct {
		name, event, payload string
		wantEvent, wantKey   string
	}{
		{"announcement", hook.SessionStart, `{"hookName":"intenthook_plugin_start","pid":"42","sessionContext":{"rootSessionId":"r1"}}`, hook.PluginStart, "r1"},
		{"hook file tool_call", hook.PreToolUse, `{"hookName":"tool_call","taskId":"c1","sessionContext":{"rootSessionId":"r1"},"tool_call":{"name":"editor","input":{"path":"a"}}}`, hook.PreToolUse, "r1"},
		{"the plugin's call", hook.PreToolUse, `{"hookName":"tool_call","plugin":true,"taskId":"c1","sessionContext":{"rootSessionId":"r1"},"tool_call":{"name":"editor","input":{"path":"a"}}}`, hook.PreToolUse, ""},
		{"tool_result", hook.PostToolUse, `{"hookName":"tool_result","taskId":"c1","sessionContext":{"rootSessionId":"r1"},"tool_result":{"name":"editor","input":{"path":"a"}}}`, hook.PostToolUse, "r1"},
		{"older Cline's PreToolUse", hook.PreToolUse, `{"hookName":"PreToolUse","taskId":"t1","preToolUse":{"toolName":"write_to_file","parameters":{"path":"a"}}}`, hook.PreToolUse, ""},
		{"no root session", hook.PreToolUse, `{"hookName":"tool_call","taskId":"c1","tool_call":{"name":"editor","input":{"path":"a"}}}`, hook.PreToolUse, ""},
	} {
		ev, err := protocol.ParseObject([]byte(tc.payload))
		if err != nil {
			t.Fatal(err)
		}
		c, err := Decode(ev, tc.event)
		if err != nil {
			t.Fatal(err)
		}
		if c.Event != tc.wantEvent || c.Plugin != tc.wantKey {
			t.Errorf("%s: event %q, plugin %q; want %q, %q", tc.name, c.Event, c.Plugin, tc.wantEvent, tc.wantKey)
		}
		if wantPID := map[bool]int{true: 42}[tc.name == "announcement"]; c.PluginProcess != wantPID {
			t.Errorf("%s: plugin process %d, want %d", tc.name, c.PluginProcess, wantPID)
		}
	}
}

// TestGovernanceNamesEveryScript: every hook script init writes is a row
// of the governance table (protected, guarded, a listed sidecar).
func TestGovernanceNamesEveryScript(t *testing.T) {
	a := Agent()
	for _, s := range scripts {
		path := HooksDir + "/" + s.event
		found := false
		for _, f := range a.Governance {
			found = found || (f.Path == path && f.Use == governed.Rules)
		}
		if !found {
			t.Errorf("%s: no governance row", path)
		}
	}
}

// TestAllowed: the written-out answer to an allow is the encoder's.
func TestAllowed(t *testing.T) {
	if want := protocol.JSON(answer{}); allowed != want {
		t.Errorf("allowed = %q, the encoder gives %q", allowed, want)
	}
	if got := Encode(&hook.Call{Event: hook.PreToolUse}, hook.Decision{}, 1000); got.Stdout != allowed || got.Exit != 0 {
		t.Errorf("an allow answers %+v", got)
	}
}
