package cline

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/agent/agenttest"
	"github.com/intenthook/intenthook/internal/agent/protocol"
)

// An npm install's Cline hook scripts run the package's binary (never npm's
// link), found from
// the script's own path whatever the working directory; the plugin runs it
// from the workspace's root; doctor names it.
func TestNPMWiring(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX shell scripts")
	}
	root, real := agenttest.NPMInstall(t)
	if _, err := wire(root, true); err != nil {
		t.Fatal(err)
	}
	_, checks := Check(root, protocol.CheckEnv{Getenv: func(string) string { return "" }, LookPath: exec.LookPath})
	if c := agenttest.Check(checks, "cline hook command"); c.Status != protocol.Pass || c.Detail != real {
		t.Fatalf("doctor: %+v", c)
	}
	if c := agenttest.Check(checks, "cline plugin"); c.Status != protocol.Pass {
		t.Fatalf("doctor: %+v", c)
	}
	data, err := os.ReadFile(filepath.Join(root, PluginFile))
	if err != nil {
		t.Fatal(err)
	}
	if want := `spawnSync(program(), [sub, "--agent", "cline"]`; !strings.Contains(string(data), want) || !strings.Contains(string(data), npmProgram) {
		t.Fatalf("the plugin does not run the project's binary:\n%s", data)
	}
	for _, s := range scripts {
		cmd := exec.Command(filepath.Join(root, HooksDir, s.event))
		cmd.Dir, cmd.Env = t.TempDir(), append(os.Environ(), "PATH=/usr/bin:/bin")
		if out, err := cmd.CombinedOutput(); err != nil || string(out) != "project "+s.sub+" --agent cline\n" {
			t.Fatalf("%s: %q %v", s.event, out, err)
		}
	}
}

// The scripts and plugin an older intenthook wrote for an npm install ran
// npm's link: doctor warns, init rewrites them once and keeps them after.
func TestNPMWiringMigrated(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX shell scripts")
	}
	root, real := agenttest.NPMInstall(t)
	for _, s := range scripts {
		path := filepath.Join(root, HooksDir, s.event)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, legacyScript(s.sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(root, filepath.Dir(PluginFile)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, PluginFile), []byte(legacyPlugin()), 0o644); err != nil {
		t.Fatal(err)
	}
	env := protocol.CheckEnv{Getenv: func(string) string { return "" }, LookPath: exec.LookPath}
	_, checks := Check(root, env)
	if c := agenttest.Check(checks, "cline hook command"); c.Status != protocol.Warn || !strings.Contains(c.Detail, "npm's link node_modules/.bin/intenthook") {
		t.Fatalf("doctor on the old wiring: %+v", c)
	}
	ch, err := wire(root, true)
	if err != nil || ch.Action != protocol.Created || !strings.Contains(ch.Detail, "PreToolUse (from npm's link") || !strings.Contains(ch.Detail, "the plugin") {
		t.Fatalf("init on the old wiring: %+v %v", ch, err)
	}
	_, checks = Check(root, env)
	if c := agenttest.Check(checks, "cline hook command"); c.Status != protocol.Pass || c.Detail != real {
		t.Fatalf("doctor after init: %+v", c)
	}
	if ch, err := wire(root, true); err != nil || ch.Action != protocol.Kept {
		t.Fatalf("init again: %+v %v", ch, err)
	}
}
