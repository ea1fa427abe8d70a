package protocol

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/hookconfig"
)

// doctor's hook-command check names the file the wiring runs, through
// links, and warns when it is npm's Node launcher rather than the binary.
func TestCheckCommandsNamesTheBinary(t *testing.T) {
	dir := t.TempDir()
	native := filepath.Join(dir, "pkg", "intenthook")
	launcher := filepath.Join(dir, "launcher", "intenthook")
	for path, data := range map[string]string{native: "\x7fELF...", launcher: "#!/usr/bin/env node\n// launcher\n"} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := func(name, to string) string {
		p := filepath.Join(dir, name, ".bin", "intenthook")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(to, p); err != nil {
			t.Skip("no symlinks here:", err)
		}
		return p
	}
	viaNative, viaLauncher := link("a", native), link("b", launcher)
	noPath := func(string) (string, error) { return "", os.ErrNotExist }
	for _, tc := range []struct {
		name, program string
		status        Status
		detail        string
	}{
		{"native through a link", viaNative, Pass, viaNative + " → " + native},
		{"node launcher", viaLauncher, Warn, "a Node launcher, not the native binary"},
		{"missing", filepath.Join(dir, "none", "intenthook"), Fail, "does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hs := []hookconfig.Handler{{Invocation: hookconfig.Invocation{Program: tc.program, Args: []string{"pre"}}, Parsed: true}}
			c := CheckCommands("hook command", "Claude Code", dir, hs, noPath)
			if c.Status != tc.status || !strings.Contains(c.Detail, tc.detail) {
				t.Fatalf("got %s %q, want %s containing %q", c.Status, c.Detail, tc.status, tc.detail)
			}
		})
	}
}

// Outside an npm install (the test binary is not under node_modules) the
// hooks keep the bare program.
func TestForInstallOutsideNPM(t *testing.T) {
	root := t.TempDir()
	hooks := []hookconfig.Hook{{Event: "PreToolUse", Subcommand: "pre"}}
	got := ForInstall(root, Agent{ProjectDirVars: []string{"CLAUDE_PROJECT_DIR"}}, hooks)
	if got[0].Command() != "intenthook pre" {
		t.Fatalf("command %q", got[0].Command())
	}
	if h := (hookconfig.Hook{Subcommand: "pre", Program: `"$CLAUDE_PROJECT_DIR"/node_modules/.bin/intenthook`}); h.Command() != `"$CLAUDE_PROJECT_DIR"/node_modules/.bin/intenthook pre` {
		t.Fatalf("command %q", h.Command())
	}
}
