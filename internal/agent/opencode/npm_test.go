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

// An npm install's OpenCode plugin runs the project's binary, two
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
	if c := agenttest.Check(checks, "opencode hook command"); c.Status != protocol.Pass || c.Detail != filepath.Join(root, "node_modules/.bin/intenthook")+" → "+real {
		t.Fatalf("doctor: %+v", checks)
	}
	data, err := os.ReadFile(filepath.Join(root, PluginFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`import.meta.dir + "/../../node_modules/.bin/intenthook"`, `Bun.spawn([program, sub, "--agent", "opencode"]`} {
		if !strings.Contains(string(data), want) {
			t.Fatalf("the plugin lacks %s:\n%s", want, data)
		}
	}
	// What Bun spawns: the path from the plugin's directory.
	cmd := exec.Command(filepath.Join(root, ".opencode", "plugin")+"/../../node_modules/.bin/intenthook", "pre", "--agent", "opencode")
	if out, err := cmd.CombinedOutput(); err != nil || string(out) != "project pre --agent opencode\n" {
		t.Fatalf("the plugin's program: %q %v", out, err)
	}
}
