package opencode

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

// An npm install's OpenCode plugin runs the package's binary (never npm's
// link), two
// directories up from its own file; doctor names it.
func TestNPMWiring(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks")
	}
	root, real := agenttest.NPMInstall(t)
	if _, err := wire(root, true); err != nil {
		t.Fatal(err)
	}
	_, checks := Check(root, protocol.CheckEnv{Getenv: func(string) string { return "" }, LookPath: func(string) (string, error) { return "", os.ErrNotExist }})
	if c := agenttest.Check(checks, "opencode hook command"); c.Status != protocol.Pass || c.Detail != real {
		t.Fatalf("doctor: %+v", checks)
	}
	data, err := os.ReadFile(filepath.Join(root, PluginFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`import.meta.dir + "/../../node_modules/intenthook/bin/intenthook"`, `Bun.spawn([program, sub, "--agent", "opencode"]`} {
		if !strings.Contains(string(data), want) {
			t.Fatalf("the plugin lacks %s:\n%s", want, data)
		}
	}
	// What Bun spawns: the path from the plugin's directory.
	cmd := exec.Command(filepath.Join(root, ".opencode", "plugin")+"/../../node_modules/intenthook/bin/intenthook", "pre", "--agent", "opencode")
	if out, err := cmd.CombinedOutput(); err != nil || string(out) != "project pre --agent opencode\n" {
		t.Fatalf("the plugin's program: %q %v", out, err)
	}
}

// The plugin an older intenthook wrote ran npm's link: doctor warns, init
// rewrites it once and keeps it after.
func TestNPMWiringMigrated(t *testing.T) {
	root, real := agenttest.NPMInstall(t)
	path := filepath.Join(root, PluginFile)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(legacyPlugin()), 0o644); err != nil {
		t.Fatal(err)
	}
	env := protocol.CheckEnv{Getenv: func(string) string { return "" }, LookPath: func(string) (string, error) { return "", os.ErrNotExist }}
	_, checks := Check(root, env)
	if c := agenttest.Check(checks, "opencode hook command"); c.Status != protocol.Warn || !strings.Contains(c.Detail, "npm's link") {
		t.Fatalf("doctor on the old plugin: %+v", checks)
	}
	if ch, err := wire(root, true); err != nil || ch.Action != protocol.Updated {
		t.Fatalf("init: %+v %v", ch, err)
	}
	_, checks = Check(root, env)
	if c := agenttest.Check(checks, "opencode hook command"); c.Status != protocol.Pass || c.Detail != real {
		t.Fatalf("doctor after init: %+v", checks)
	}
	if ch, err := wire(root, true); err != nil || ch.Action != protocol.Kept {
		t.Fatalf("init again: %+v %v", ch, err)
	}
}
