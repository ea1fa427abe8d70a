package gate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/workspace"
)

// TestProjectUnknown holds the calls of an agent whose event names its
// project (Junie) when that project is not governed: what is left alone
// and what is denied because it cannot be placed.
func TestProjectUnknown(t *testing.T) {
	dir := t.TempDir()
	gov := filepath.Join(dir, "gov")
	other := filepath.Join(dir, "other")
	for _, d := range []string{filepath.Join(gov, ".orchestration"), filepath.Join(gov, "src"), other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(gov, filepath.FromSlash(workspace.Marker)), []byte("active_intents: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A link in the ungoverned project that leads into the governed tree.
	if err := os.Symlink(filepath.Join(gov, "src"), filepath.Join(other, "link")); err != nil {
		t.Fatal(err)
	}
	write := func(project string, paths ...string) *hook.Call {
		return &hook.Call{Event: hook.PreToolUse, ProjectFromEvent: true, ProjectDir: project, ToolName: "Write", Class: hook.ClassWrite, Paths: paths}
	}
	run := func(project, command string) *hook.Call {
		return &hook.Call{Event: hook.PreToolUse, ProjectFromEvent: true, ProjectDir: project, ToolName: "Bash", Class: hook.ClassShell, Command: command}
	}
	tests := []struct {
		name string
		call *hook.Call
		deny bool
	}{
		{"an ungoverned project's own write", write(other, filepath.Join(other, "a.txt")), false},
		{"an ungoverned project's relative write", write(other, "a.txt"), false},
		{"an ungoverned project's command", run(other, "echo x > a.txt"), false},
		{"an ungoverned project's write into a governed tree", write(other, filepath.Join(gov, "src", "a.go")), true},
		{"a relative write that climbs into a governed tree", write(other, "../gov/src/a.go"), true},
		{"a write through a link into a governed tree", write(other, filepath.Join(other, "link", "new", "a.go")), true},
		{"no project: a write into a governed tree", write("", filepath.Join(gov, "src", "a.go")), true},
		{"no project: a write outside every governed tree", write("", filepath.Join(other, "a.txt")), false},
		{"no project: a relative write", write("", "a.txt"), true},
		{"no project: a command", run("", "echo x > /tmp/y"), true},
		{"no project: a read-only command", run("", "ls"), false},
		{"no project: a write whose target is unknown", &hook.Call{Event: hook.PreToolUse, ProjectFromEvent: true, ToolName: "Write", Class: hook.ClassWrite, Unparsed: "no file_path"}, true},
		{"a relative project directory is no project", write("other", "a.txt"), true},
		{"a project directory that is not there is no project", run(filepath.Join(dir, "gone"), "echo x > a"), true},
		{"no project: a read", &hook.Call{Event: hook.PreToolUse, ProjectFromEvent: true, ToolName: "Read", Class: hook.ClassRead, Paths: []string{filepath.Join(gov, "src", "a.go")}}, false},
		{"an agent whose events name no project", &hook.Call{Event: hook.PreToolUse, ToolName: "Write", Class: hook.ClassWrite, Paths: []string{filepath.Join(gov, "src", "a.go")}}, false},
		{"after a tool", &hook.Call{Event: hook.PostToolUse, ProjectFromEvent: true, ToolName: "Bash", Class: hook.ClassShell, Command: "echo x > a"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, deny := ProjectUnknown(&Env{}, tt.call)
			if deny != tt.deny {
				t.Fatalf("deny = %v (%s), want %v", deny, d.Message, tt.deny)
			}
			if deny && (d.Verdict != hook.Deny || d.Code != hook.CodeTargetUnknown) {
				t.Errorf("decision %+v", d)
			}
		})
	}
}

// TestUserWiring: the calling agent's hooks file in the user's home, and a
// directory holding it, are refused; a neighbour is not, nor anything for
// an agent wired in the repository.
func TestUserWiring(t *testing.T) {
	home := t.TempDir()
	wiring := filepath.Join(home, ".junie", "config.json")
	tests := []struct {
		name, wiring, abs string
		deny              bool
	}{
		{"the file", wiring, wiring, true},
		{"its directory", wiring, filepath.Join(home, ".junie"), true},
		{"the home", wiring, home, true},
		{"a neighbour", wiring, filepath.Join(home, ".junie", "allowlist.json"), false},
		{"a name that only starts alike", wiring, filepath.Join(home, ".juni"), false},
		{"an agent wired in the repository", "", wiring, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			call := &hook.Call{UserWiring: tt.wiring, SessionID: "s"}
			tg := &target{tool: "Write", given: tt.abs, res: workspace.Resolved{Abs: tt.abs}}
			d, deny := userWiring(call, tg)
			if deny != tt.deny || (deny && d.Code != hook.CodeProtectedPath) {
				t.Errorf("deny = %v (%+v), want %v", deny, d, tt.deny)
			}
		})
	}
}

// TestModsDir: a target in or under Claude Code's dev-mods folder, or a
// directory holding it, is refused for any agent; a neighbour is not, nor
// a name that only starts alike; a link to the folder counts as the folder.
func TestModsDir(t *testing.T) {
	home := t.TempDir()
	mods := filepath.Join(home, ".claude", "dev-mods")
	if err := os.MkdirAll(mods, 0o755); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(t.TempDir(), "cfg")
	if err := os.Symlink(filepath.Join(home, ".claude"), linked); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		dirs []string
		abs  string
		deny bool
	}{
		{"a mod's file", []string{mods}, filepath.Join(mods, "m", "hooks", "register.ts"), true},
		{"the folder", []string{mods}, mods, true},
		{"the configuration home", []string{mods}, filepath.Join(home, ".claude"), true},
		{"the home", []string{mods}, home, true},
		{"a neighbour", []string{mods}, filepath.Join(home, ".claude", "settings.json"), false},
		{"a name that only starts alike", []string{mods}, mods + "-old", false},
		{"through a linked configuration home", []string{filepath.Join(linked, "dev-mods")}, filepath.Join(mods, "m.ts"), true},
		{"no folders known", nil, filepath.Join(mods, "m.ts"), false},
	}
	inside := []struct {
		name string
		abs  string
		deny bool
	}{
		{"inside a workspace: a mod's file", filepath.Join(mods, "m.ts"), true},
		{"inside a workspace: the home that is its root", home, false},
	}
	for _, tt := range inside {
		t.Run(tt.name, func(t *testing.T) {
			call := &hook.Call{ModsDirs: []string{mods}, SessionID: "s"}
			tg := &target{tool: "Bash", given: tt.abs, res: workspace.Resolved{Abs: tt.abs, Place: workspace.Inside}}
			if _, deny := modsDir(call, tg); deny != tt.deny {
				t.Errorf("deny = %v, want %v", deny, tt.deny)
			}
		})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			call := &hook.Call{ModsDirs: tt.dirs, SessionID: "s"}
			tg := &target{tool: "Write", given: tt.abs, res: workspace.Resolved{Abs: tt.abs, Place: workspace.Outside}}
			d, deny := modsDir(call, tg)
			if deny != tt.deny || (deny && d.Code != hook.CodeProtectedPath) {
				t.Errorf("deny = %v (%+v), want %v", deny, d, tt.deny)
			}
		})
	}
}

// TestWithinFold: where the file system ignores case, a folder spelt in
// another case is the same folder; elsewhere it is not.
func TestWithinFold(t *testing.T) {
	dir := filepath.Join("/home", "u", ".claude", "dev-mods")
	other := filepath.Join("/home", "u", ".Claude", "Dev-Mods", "m.ts")
	if !withinFold(other, dir, true) {
		t.Errorf("folded: %s not within %s", other, dir)
	}
	if withinFold(other, dir, false) {
		t.Errorf("unfolded: %s within %s", other, dir)
	}
	if withinFold(dir+"-old", dir, true) {
		t.Errorf("a name that only starts alike is within")
	}
}
