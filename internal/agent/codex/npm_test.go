package codex

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/agent/agenttest"
	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/hookconfig"
)

// An npm install's Codex hooks run the workspace root's binary (never npm's
// link, never a node_modules below the root) from whatever directory below
// the project Codex runs them in, and doctor names it.
func TestNPMWiring(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX shell commands")
	}
	root, real := agenttest.NPMInstall(t)
	if _, err := protocol.WireJSON(root, HooksFile, npmHooks(), ""); err != nil {
		t.Fatal(err)
	}
	_, checks := Check(root, protocol.CheckEnv{Getenv: func(string) string { return "" }, LookPath: exec.LookPath})
	if c := agenttest.Check(checks, "codex hook command"); c.Status != protocol.Pass || !strings.HasSuffix(c.Detail, "→ "+real) {
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
	// A binary planted between the session's directory and the root.
	planted := filepath.Join(root, "src", filepath.FromSlash(hookconfig.NPMBinary))
	if err := os.MkdirAll(filepath.Dir(planted), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(planted, []byte("#!/bin/sh\necho planted\n"), 0o755); err != nil {
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

// The hooks an older intenthook wrote searched for npm's link from the
// working directory up: doctor warns, init rewrites them to the root's
// binary once and keeps them after.
func TestNPMWiringMigrated(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX shell commands")
	}
	root, _ := agenttest.NPMInstall(t)
	legacy := Hooks()
	for i := range legacy {
		legacy[i].Program = hookconfig.LegacySearchUp
	}
	if _, err := protocol.WireJSON(root, HooksFile, legacy, ""); err != nil {
		t.Fatal(err)
	}
	env := protocol.CheckEnv{Getenv: func(string) string { return "" }, LookPath: exec.LookPath}
	_, checks := Check(root, env)
	if c := agenttest.Check(checks, "codex hook command"); c.Status != protocol.Warn || !strings.Contains(c.Detail, "npm's link") {
		t.Fatalf("doctor on the old wiring: %+v", c)
	}
	ch, err := protocol.WireJSON(root, HooksFile, npmHooks(), "")
	if err != nil || ch.Action != protocol.Updated || !strings.Contains(ch.Detail, "rewrote 5 hook command(s)") || strings.Contains(ch.Detail, "added") {
		t.Fatalf("init: %+v %v", ch, err)
	}
	data, _ := os.ReadFile(filepath.Join(root, HooksFile))
	if strings.Contains(string(data), ".bin") {
		t.Fatalf("after init:\n%s", data)
	}
	if ch, err := protocol.WireJSON(root, HooksFile, npmHooks(), ""); err != nil || ch.Action != protocol.Kept {
		t.Fatalf("init again: %+v %v", ch, err)
	}
	_, checks = Check(root, env)
	if c := agenttest.Check(checks, "codex hook command"); c.Status != protocol.Pass {
		t.Fatalf("doctor after init: %+v", c)
	}
}
