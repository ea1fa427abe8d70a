package codex

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/hookconfig"
)

// An npm install's Codex hooks run the project's binary from whatever
// directory below the project Codex runs them in, and doctor names it.
func TestNPMWiring(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX shell commands")
	}
	root, real := fakeNPMInstall(t)
	if _, err := protocol.WireJSON(root, HooksFile, npmHooks(), ""); err != nil {
		t.Fatal(err)
	}
	_, checks := Check(root, protocol.CheckEnv{Getenv: func(string) string { return "" }, LookPath: exec.LookPath})
	if c := find(checks, "codex hook command"); c.Status != protocol.Pass || !strings.HasSuffix(c.Detail, "→ "+real) {
		t.Fatalf("doctor: %+v", c)
	}
	data, err := os.ReadFile(filepath.Join(root, HooksFile))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), root) {
		t.Fatalf("%s names the project's absolute path:\n%s", HooksFile, data)
	}
	sub := filepath.Join(root, "src", "deep")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", npmHooks()[0].Command())
	cmd.Dir, cmd.Env = sub, append(os.Environ(), "PWD="+sub, "PATH=/usr/bin:/bin")
	if out, err := cmd.CombinedOutput(); err != nil || string(out) != "project pre --agent codex\n" {
		t.Fatalf("the wiring from %s: %q %v", sub, out, err)
	}
}

func npmHooks() []hookconfig.Hook {
	hs := Hooks()
	for i := range hs {
		hs[i].Program = protocol.NPMProgram(Agent())
	}
	return hs
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
