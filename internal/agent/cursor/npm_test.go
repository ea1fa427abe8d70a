package cursor

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/agent/protocol"
)

// An npm install's Cursor hooks run the project's binary through
// CURSOR_PROJECT_DIR, and doctor names it.
func TestNPMWiring(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX shell commands")
	}
	root, real := fakeNPMInstall(t)
	hooks := Hooks()
	for i := range hooks {
		hooks[i].Program = protocol.NPMProgram(Agent())
	}
	if _, err := protocol.WireFlat(root, HooksFile, true, hooks); err != nil {
		t.Fatal(err)
	}
	_, checks := Check(root, protocol.CheckEnv{Getenv: func(string) string { return "" }, LookPath: exec.LookPath})
	if c := find(checks, "cursor hook command"); c.Status != protocol.Pass || !strings.HasSuffix(c.Detail, "→ "+real) {
		t.Fatalf("doctor: %+v", c)
	}
	want := `"$CURSOR_PROJECT_DIR"/node_modules/.bin/intenthook pre --agent cursor`
	if got := hooks[0].Command(); got != want {
		t.Fatalf("command %q, want %q", got, want)
	}
	cmd := exec.Command("sh", "-c", want)
	cmd.Dir, cmd.Env = t.TempDir(), append(os.Environ(), "CURSOR_PROJECT_DIR="+root, "PATH=/usr/bin:/bin")
	if out, err := cmd.CombinedOutput(); err != nil || string(out) != "project pre --agent cursor\n" {
		t.Fatalf("the wiring: %q %v", out, err)
	}
}

func find(checks []protocol.Check, name string) protocol.Check {
	for _, c := range checks {
		if c.Name == name {
			return c
		}
	}
	return protocol.Check{}
}

// fakeNPMInstall lays out what npm leaves in a project: its link to the
// package's binary, here a script that says it ran.
func fakeNPMInstall(t *testing.T) (root, real string) {
	root = t.TempDir()
	real = filepath.Join(root, "node_modules", "intenthook", "bin", "intenthook")
	link := filepath.Join(root, "node_modules", ".bin", "intenthook")
	for _, d := range []string{filepath.Dir(real), filepath.Dir(link)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(real, []byte("#!/bin/sh\necho project \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../intenthook/bin/intenthook", link); err != nil {
		t.Skip("no symlinks here:", err)
	}
	return root, real
}
