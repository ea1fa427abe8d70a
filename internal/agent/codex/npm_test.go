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

// An npm install's Codex hooks run the project's binary from whatever
// directory below the project Codex runs them in, and doctor names it.
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
