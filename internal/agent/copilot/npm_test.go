package copilot

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

// An npm install's Copilot CLI hooks run the project's binary by a path
// relative to the repository's root, the working directory each names, and
// doctor names it.
func TestNPMWiring(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX shell commands")
	}
	root, real := agenttest.NPMInstall(t)
	if _, err := wire(root, true); err != nil {
		t.Fatal(err)
	}
	_, checks := Check(root, protocol.CheckEnv{Getenv: func(string) string { return "" }, LookPath: exec.LookPath})
	if c := agenttest.Check(checks, "copilot hook command"); c.Status != protocol.Pass || c.Detail != "node_modules/.bin/intenthook → "+filepath.Join(root, "node_modules/.bin/intenthook")+" → "+real {
		t.Fatalf("doctor: %+v", c)
	}
	data, err := os.ReadFile(filepath.Join(root, HooksFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"bash": "./node_modules/.bin/intenthook pre --agent copilot"`, `"powershell": "./node_modules/.bin/intenthook.cmd pre --agent copilot"`, `"cwd": "."`} {
		if !strings.Contains(string(data), want) {
			t.Fatalf("%s lacks %s:\n%s", HooksFile, want, data)
		}
	}
	cmd := exec.Command("sh", "-c", npmBash+" pre --agent copilot")
	cmd.Dir, cmd.Env = root, append(os.Environ(), "PATH=/usr/bin:/bin")
	if out, err := cmd.CombinedOutput(); err != nil || string(out) != "project pre --agent copilot\n" {
		t.Fatalf("the wiring: %q %v", out, err)
	}
}
