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

// An npm install's Cline hook scripts run the project's binary, found from
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
	if c := agenttest.Check(checks, "cline hook command"); c.Status != protocol.Pass || c.Detail != filepath.Join(root, "node_modules/.bin/intenthook")+" → "+real {
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
