package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/agent/protocol"
)

func TestInlineHooks(t *testing.T) {
	for _, tc := range []struct {
		name, toml string
		want       bool
	}{
		{"empty", "", false},
		{"array of tables", "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n", true},
		{"nested handlers", "[[hooks.PreToolUse.hooks]]\ntype = \"command\"\n", true},
		{"spaced", "[[ hooks.PostToolUse ]]\n", true},
		{"quoted", "[[\"hooks\".PreToolUse]]\n", true},
		{"the hooks table", "[hooks]\nPreToolUse = []\n", true},
		{"with a comment", "[[hooks.Stop]] # ours\n", true},
		{"top-level dotted key", "hooks.PreToolUse = []\n", true},
		{"top-level key", "hooks = { PreToolUse = [] }\n", true},
		{"the feature switch", "[features]\nhooks = true\n", false},
		{"a key in another table", "[mcp_servers.x]\nhooks = 1\n", false},
		{"a longer name", "[hooks_extra]\n", false},
		{"commented out", "# [[hooks.PreToolUse]]\n", false},
		{"mcp and sandbox", "sandbox_mode = \"workspace-write\"\n[mcp_servers.intenthook]\ncommand = \"x\"\n", false},
	} {
		if _, got := inlineHooks(tc.toml); got != tc.want {
			t.Errorf("%s: inlineHooks(%q) = %v, want %v", tc.name, tc.toml, got, tc.want)
		}
	}
}

// TestCheckPatchDeny: on Windows alone doctor says a deny of apply_patch
// is not known to hold, and the grade then is after the fact.
func TestCheckPatchDeny(t *testing.T) {
	for _, goos := range []string{"linux", "darwin", "freebsd"} {
		if c, ok := checkPatchDeny(goos); ok {
			t.Errorf("%s: got %v, want no line", goos, c)
		}
	}
	c, ok := checkPatchDeny("windows")
	if !ok || c.Status != protocol.Warn || c.Name != "codex deny held" || !strings.Contains(c.Detail, "openai/codex#27833") {
		t.Fatalf("windows: got %v %v", c, ok)
	}
	hook := protocol.Check{Status: protocol.Pass, Name: "codex hook PreToolUse"}
	if g, why, basis := protocol.GradeOf(Agent(), []protocol.Check{hook, c}); g != protocol.AfterTheFact || !strings.Contains(why, "see codex deny held") || !strings.Contains(strings.Join(basis, "; "), "codex deny held !") {
		t.Errorf("windows grade: %s: %s (%v)", g, why, basis)
	}
	if g, _, _ := protocol.GradeOf(Agent(), []protocol.Check{hook}); g != protocol.Guarded {
		t.Errorf("elsewhere: grade %s, want guarded", g)
	}
}

// TestCheckWindows: Check passes its GOOS on to the platform switch.
func TestCheckWindows(t *testing.T) {
	root := t.TempDir()
	if _, err := Wire(root); err != nil {
		t.Fatal(err)
	}
	env := func(goos string) protocol.CheckEnv {
		return protocol.CheckEnv{GOOS: goos, Getenv: func(string) string { return "" }, LookPath: func(string) (string, error) { return "/bin/intenthook", nil }}
	}
	for goos, want := range map[string]bool{"windows": true, "linux": false} {
		configured, checks := Check(root, env(goos))
		found := false
		for _, c := range checks {
			found = found || c.Name == protocol.DenyHeldCheck(Name)
		}
		if !configured || found != want {
			t.Errorf("%s: configured %v, deny held line %v, want %v", goos, configured, found, want)
		}
	}
	// Both hook files in the project layer: a warning naming the table.
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(ConfigFile)), []byte("[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, checks := Check(root, env("linux"))
	var twice *protocol.Check
	for i := range checks {
		if checks[i].Name == "codex hooks twice" {
			twice = &checks[i]
		}
	}
	if twice == nil || twice.Status != protocol.Warn || !strings.Contains(twice.Detail, "[[hooks.PreToolUse]]") {
		t.Errorf("hooks twice: got %v", twice)
	}
}
