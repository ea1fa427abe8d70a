package protocol

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/intenthook/intenthook/internal/hook"
)

func TestMCPToolFill(t *testing.T) {
	tests := []struct {
		name     string
		tool     string
		input    string
		class    hook.Class
		paths    []string
		unparsed bool
	}{
		{"write_file", "mcp__filesystem__write_file", `{"path":"src/a.go","content":"x"}`, hook.ClassWrite, []string{"src/a.go"}, false},
		{"any server name", "mcp__fs2__edit_file", `{"path":"src/a.go","edits":[]}`, hook.ClassWrite, []string{"src/a.go"}, false},
		{"create_directory", "mcp__filesystem__create_directory", `{"path":"src/new"}`, hook.ClassWrite, []string{"src/new"}, false},
		{"move_file both ends", "mcp__filesystem__move_file", `{"source":"src/a.go","destination":"lib/a.go"}`, hook.ClassWrite, []string{"src/a.go", "lib/a.go"}, false},
		{"write without path", "mcp__filesystem__write_file", `{"content":"x"}`, hook.ClassWrite, nil, true},
		{"read tool is exempt, its file named for attribution", "mcp__filesystem__read_file", `{"path":"src/a.go"}`, hook.ClassExempt, []string{"src/a.go"}, false},
		{"Serena's relative_path", "mcp__serena__replace_symbol_body", `{"relative_path":"src/a.go","body":"x"}`, hook.ClassExempt, []string{"src/a.go"}, false},
		{"another server's tool is exempt", "mcp__github__create_issue", `{"title":"x"}`, hook.ClassExempt, nil, false},
		{"select tool", "mcp__intenthook__select_active_intent", `{"intent_id":"INT-001"}`, hook.ClassSelect, nil, false},
		{"not mcp", "write_file", `{"path":"src/a.go"}`, hook.ClassUnclassified, nil, false},
		{"no tool part", "mcp__filesystem", `{"path":"src/a.go"}`, hook.ClassUnclassified, nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := hook.Call{ToolName: tc.tool}
			Tools{}.Fill(&c, json.RawMessage(tc.input))
			if c.Class != tc.class || !slices.Equal(c.Paths, tc.paths) || (c.Unparsed != "") != tc.unparsed {
				t.Errorf("got class %v paths %v unparsed %q", c.Class, c.Paths, c.Unparsed)
			}
		})
	}
}

// TestMCPHome: an MCP tool's path ~/… is the home directory's, as the
// reference filesystem server reads it; a path of another tool is as written.
func TestMCPHome(t *testing.T) {
	t.Setenv("HOME", "/home/u")
	for _, tc := range []struct {
		tool, input string
		paths       []string
	}{
		{"mcp__filesystem__write_file", `{"path":"~/.zshrc","content":"x"}`, []string{"/home/u/.zshrc"}},
		{"mcp__filesystem__create_directory", `{"path":"~"}`, []string{"/home/u"}},
		{"mcp__filesystem__move_file", `{"source":"src/a","destination":"~/a"}`, []string{"src/a", "/home/u/a"}},
		{"mcp__filesystem__write_file", `{"path":"~other/x","content":"x"}`, []string{"~other/x"}},
		{"mcp__serena__replace_symbol_body", `{"relative_path":"~/x.go"}`, []string{"/home/u/x.go"}},
	} {
		c := hook.Call{ToolName: tc.tool}
		Tools{}.Fill(&c, json.RawMessage(tc.input))
		if !slices.Equal(c.Paths, tc.paths) {
			t.Errorf("%s %s: paths %q, want %q", tc.tool, tc.input, c.Paths, tc.paths)
		}
	}
	write := Tools{{Name: "Write", Tool: Tool{Class: hook.ClassWrite, Path: []string{"file_path"}}}}
	c := hook.Call{ToolName: "Write"}
	write.Fill(&c, json.RawMessage(`{"file_path":"~/x"}`))
	if !slices.Equal(c.Paths, []string{"~/x"}) {
		t.Errorf("Write ~/x: paths %q", c.Paths)
	}
}

// TestMCPName: an event that names the tool bare and its server apart
// (Cursor's beforeMCPExecution) reads as the other agents' names.
func TestMCPName(t *testing.T) {
	for _, tc := range []struct{ tool, server, want string }{
		{"write_file", "filesystem", "mcp__filesystem__write_file"},
		{"select_active_intent", "", "mcp__mcp__select_active_intent"},
		{"mcp__fs__write_file", "fs", "mcp__fs__write_file"},
		{"", "fs", ""},
	} {
		if got := MCPName(tc.tool, tc.server); got != tc.want {
			t.Errorf("MCPName(%q, %q) = %q, want %q", tc.tool, tc.server, got, tc.want)
		}
	}
}

func TestMCPJoined(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"intenthook-select_active_intent", "mcp__intenthook__select_active_intent"},
		{"github-mcp-server-write_file", "mcp__github-mcp-server__write_file"}, // a dash in the server's name
		{"fs-move_file", "mcp__fs__move_file"},
		{"fs-read_file", "fs-read_file"}, // a tool intenthook does not read
		{"context7-resolve-library-id", "context7-resolve-library-id"},
		{"-write_file", "-write_file"}, // no server
		{"write_file", "write_file"},
		{"create", "create"},
		{"fs_write_file", "fs_write_file"}, // not the separator
	} {
		if got := MCPJoined(tc.name, "-"); got != tc.want {
			t.Errorf("MCPJoined(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestMCPJoinedToolFirst(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"select_active_intent_intenthook", "mcp__intenthook__select_active_intent"},
		{"write_file_fs", "mcp__fs__write_file"},
		{"move_file_my_server", "mcp__my_server__move_file"},
		{"read_file_fs", "read_file_fs"},
		{"select_active_intent_", "select_active_intent_"},
		{"select_active_intent", "select_active_intent"},
	} {
		if got := MCPJoinedToolFirst(tc.name, "_"); got != tc.want {
			t.Errorf("MCPJoinedToolFirst(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestOverride(t *testing.T) {
	tests := []struct {
		name     string
		tool     string
		input    string
		class    hook.Class
		paths    []string
		command  string
		unparsed bool
	}{
		{"file_path", "my_writer", `{"file_path":"/w/src/a.go"}`, hook.ClassWrite, []string{"/w/src/a.go"}, "", false},
		{"path", "my_writer", `{"path":"src/a.go"}`, hook.ClassWrite, []string{"src/a.go"}, "", false},
		{"paths", "my_writer", `{"paths":["a","b"]}`, hook.ClassWrite, []string{"a", "b"}, "", false},
		{"target_file", "my_deleter", `{"target_file":"a"}`, hook.ClassDelete, []string{"a"}, "", false},
		{"notebook_path", "my_writer", `{"notebook_path":"n.ipynb"}`, hook.ClassWrite, []string{"n.ipynb"}, "", false},
		{"relative_path", "mcp__serena__replace_symbol_body", `{"relative_path":"src/a.go"}`, hook.ClassWrite, []string{"src/a.go"}, "", false},
		{"patch text", "my_writer", `{"patch":"*** Begin Patch\n*** Add File: p.go\n+x\n*** End Patch\n"}`, hook.ClassWrite, []string{"p.go"}, "", false},
		{"bad patch", "my_writer", `{"input":"*** Begin Patch\n*** Frob: p.go\n"}`, hook.ClassWrite, nil, "", true},
		{"no file", "my_writer", `{"content":"x"}`, hook.ClassWrite, nil, "", true},
		{"shell", "my_runner", `{"command":"ls"}`, hook.ClassShell, nil, "ls", false},
		{"read", "my_reader", `{"path":"a"}`, hook.ClassRead, []string{"a"}, "", false},
		{"exempt", "Write", `{"file_path":"a"}`, hook.ClassExempt, nil, "", false},
		// Mapped to the class the table already gives: the shared keys are
		// read too.
		{"same class, the table's key", "write_to_file", `{"path":"src/a.ts"}`, hook.ClassWrite, []string{"src/a.ts"}, "", false},
		{"same class, another key", "write_to_file", `{"target_file":"src/api/t.ts"}`, hook.ClassWrite, []string{"src/api/t.ts"}, "", false},
		{"same class, both keys", "write_to_file", `{"path":"a","target_file":"b"}`, hook.ClassWrite, []string{"a", "b"}, "", false},
		{"same class, no file", "write_to_file", `{"content":"x"}`, hook.ClassWrite, nil, "", true},
		{"same class, shell", "run", `{"cmd":"ls"}`, hook.ClassShell, nil, "ls", false},
	}
	tools := map[string]string{"my_writer": "write", "my_deleter": "delete", "my_runner": "shell", "my_reader": "read", "Write": "exempt", "mcp__serena__replace_symbol_body": "write",
		"write_to_file": "write", "run": "shell"}
	table := Tools{{Name: "Write", Tool: Tool{Class: hook.ClassWrite, Path: []string{"file_path"}}},
		{Name: "write_to_file", Tool: Tool{Class: hook.ClassWrite, Path: []string{"path"}}},
		{Name: "run", Tool: Tool{Class: hook.ClassShell}}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := hook.Call{ToolName: tc.tool}
			table.Fill(&c, json.RawMessage(tc.input))
			Override(&c, tools)
			if c.Class != tc.class || !slices.Equal(c.Paths, tc.paths) || c.Command != tc.command || (c.Unparsed != "") != tc.unparsed {
				t.Errorf("got class %v paths %v command %q unparsed %q", c.Class, c.Paths, c.Command, c.Unparsed)
			}
		})
	}
}
