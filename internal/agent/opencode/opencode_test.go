package opencode

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/hook"
)

// TestDecodeCaptured decodes what the plugin init writes sent intenthook
// under OpenCode 1.18.33 (testdata/agents/opencode/README.md): each call
// carries the class, files, directory and session the gate needs.
func TestDecodeCaptured(t *testing.T) {
	const sess, gptSess = "ses_dfb46c7c0ffeftt7R1txEXbIfk", "ses_dfb465e9effeQKl0dNDUqECZFT"
	tests := []struct {
		file    string
		event   string
		class   hook.Class
		session string
		cwd     string
		paths   []string
		command string
	}{
		{"SessionStart.json", hook.SessionStart, hook.ClassUnclassified, sess, "/work/proj", nil, ""},
		{"PreToolUse-write.json", hook.PreToolUse, hook.ClassWrite, sess, "/work/proj", []string{"/work/proj/hello.txt"}, ""},
		{"PostToolUse-write.json", hook.PostToolUse, hook.ClassWrite, sess, "/work/proj", []string{"/work/proj/hello.txt"}, ""},
		{"PreToolUse-edit.json", hook.PreToolUse, hook.ClassWrite, sess, "/work/proj", []string{"/work/proj/hello.txt"}, ""},
		{"PostToolUse-edit.json", hook.PostToolUse, hook.ClassWrite, sess, "/work/proj", []string{"/work/proj/hello.txt"}, ""},
		{"PreToolUse-read.json", hook.PreToolUse, hook.ClassRead, sess, "/work/proj", []string{"/work/proj/hello.txt"}, ""},
		{"PostToolUse-read.json", hook.PostToolUse, hook.ClassRead, sess, "/work/proj", []string{"/work/proj/hello.txt"}, ""},
		// bash runs in its workdir, not the session's directory.
		{"PreToolUse-bash.json", hook.PreToolUse, hook.ClassShell, sess, "/work/proj/sub", nil, "echo shell > shell.txt"},
		{"PostToolUse-bash.json", hook.PostToolUse, hook.ClassShell, sess, "/work/proj/sub", nil, "echo shell > shell.txt"},
		// A GPT model's writes and edits: every file the patch names.
		{"PreToolUse-apply_patch.json", hook.PreToolUse, hook.ClassWrite, gptSess, "/work/proj", []string{"/work/proj/hello.txt"}, ""},
		{"PostToolUse-apply_patch.json", hook.PostToolUse, hook.ClassWrite, gptSess, "/work/proj", []string{"/work/proj/hello.txt"}, ""},
		{"PreToolUse-apply_patch-2.json", hook.PreToolUse, hook.ClassWrite, gptSess, "/work/proj", []string{"/work/proj/hello.txt"}, ""},
		{"PostToolUse-apply_patch-2.json", hook.PostToolUse, hook.ClassWrite, gptSess, "/work/proj", []string{"/work/proj/hello.txt"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "agents", "opencode", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			ev, err := protocol.ParseObject(data)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Decode(ev, hook.PreToolUse)
			if err != nil {
				t.Fatal(err)
			}
			if c.Agent != Name || c.Event != tt.event || c.Class != tt.class || c.SessionID != tt.session || c.Cwd != tt.cwd ||
				c.Command != tt.command || !reflect.DeepEqual(c.Paths, tt.paths) || c.Unparsed != "" {
				t.Errorf("got agent=%s event=%s class=%s session=%s cwd=%s command=%q paths=%q unparsed=%q",
					c.Agent, c.Event, c.Class, c.SessionID, c.Cwd, c.Command, c.Paths, c.Unparsed)
			}
		})
	}
}

// TestDecodeTools covers the tools the captures do not: a patch's every
// target, a relative workdir, and a write tool whose file cannot be found.
func TestDecodeTools(t *testing.T) {
	tests := []struct {
		name     string
		event    string
		class    hook.Class
		cwd      string
		paths    []string
		unparsed bool
	}{
		{"apply_patch moving a file", `{"cwd":"/w","tool_name":"apply_patch","tool_input":{"patchText":"*** Begin Patch\n*** Update File: a.go\n*** Move to: docs/b.go\n@@\n-x\n+y\n*** Delete File: c.go\n*** End Patch\n"}}`,
			hook.ClassWrite, "/w", []string{"a.go", "docs/b.go", "c.go"}, false},
		{"apply_patch with no patch", `{"cwd":"/w","tool_name":"apply_patch","tool_input":{}}`, hook.ClassWrite, "/w", nil, true},
		{"write with no path", `{"cwd":"/w","tool_name":"write","tool_input":{"content":"x"}}`, hook.ClassWrite, "/w", nil, true},
		{"bash in a relative workdir", `{"cwd":"/w","tool_name":"bash","tool_input":{"command":"ls","workdir":"sub"}}`, hook.ClassShell, "/w/sub", nil, false},
		{"skill is exempt", `{"cwd":"/w","tool_name":"skill","tool_input":{"name":"x"}}`, hook.ClassExempt, "/w", nil, false},
		{"an unknown tool stays unclassified", `{"cwd":"/w","tool_name":"lsp","tool_input":{}}`, hook.ClassUnclassified, "/w", nil, false},
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
			if c.Event != hook.PreToolUse || c.Class != tt.class || c.Cwd != tt.cwd || !reflect.DeepEqual(c.Paths, tt.paths) || (c.Unparsed != "") != tt.unparsed {
				t.Errorf("got event=%s class=%s cwd=%s paths=%q unparsed=%q", c.Event, c.Class, c.Cwd, c.Paths, c.Unparsed)
			}
		})
	}
}

// TestPlugin pins what the plugin asks of OpenCode: the three hooks it
// answers, and that it runs intenthook with --agent opencode.
func TestPlugin(t *testing.T) {
	for _, want := range []string{
		`"experimental.chat.system.transform": async (input, output)`,
		`"tool.execute.before": async (input, output)`,
		`"tool.execute.after": async (input, output)`,
		`Bun.spawn(["intenthook", sub, "--agent", "opencode"]`,
		`run("context", { hook_event_name: "SessionStart"`,
		`if (r.code === 2) throw new Error(r.stderr.trim())`,
	} {
		if !strings.Contains(plugin, want) {
			t.Errorf("the plugin lacks %s", want)
		}
	}
}
