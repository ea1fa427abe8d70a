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

// An npm install's Copilot CLI hooks run the package's binary (never npm's
// link; PowerShell npm's .cmd shim) by a path
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
	if c := agenttest.Check(checks, "copilot hook command"); c.Status != protocol.Pass || c.Detail != "node_modules/intenthook/bin/intenthook → "+real {
		t.Fatalf("doctor: %+v", c)
	}
	data, err := os.ReadFile(filepath.Join(root, HooksFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"bash": "./node_modules/intenthook/bin/intenthook pre --agent copilot"`, `"powershell": "./node_modules/.bin/intenthook.cmd pre --agent copilot"`, `"cwd": "."`} {
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

// The hooks file an older intenthook wrote ran npm's link: doctor warns,
// init rewrites its bash commands once (the PowerShell shim stays).
func TestNPMWiringMigrated(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX shell commands")
	}
	root, _ := agenttest.NPMInstall(t)
	path := filepath.Join(root, HooksFile)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	old := `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"./node_modules/.bin/intenthook pre --agent copilot","powershell":"./node_modules/.bin/intenthook.cmd pre --agent copilot","cwd":"."}],"postToolUse":[{"type":"command","bash":"./node_modules/.bin/intenthook post --agent copilot","cwd":"."}],"sessionStart":[{"type":"command","bash":"./node_modules/.bin/intenthook context --agent copilot","cwd":"."}]}}`
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	env := protocol.CheckEnv{Getenv: func(string) string { return "" }, LookPath: exec.LookPath}
	_, checks := Check(root, env)
	if c := agenttest.Check(checks, "copilot hook command"); c.Status != protocol.Warn || !strings.Contains(c.Detail, "npm's link") {
		t.Fatalf("doctor on the old wiring: %+v", c)
	}
	if ch, err := wire(root, true); err != nil || ch.Action != protocol.Updated || !strings.Contains(ch.Detail, "rewrote 3") {
		t.Fatalf("init: %+v %v", ch, err)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"./node_modules/intenthook/bin/intenthook pre --agent copilot"`) || !strings.Contains(string(data), "intenthook.cmd pre") {
		t.Fatalf("after init:\n%s", data)
	}
	if ch, err := wire(root, true); err != nil || ch.Action != protocol.Kept {
		t.Fatalf("init again: %+v %v", ch, err)
	}
}
