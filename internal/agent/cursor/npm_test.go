package cursor

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/agent/agenttest"
	"github.com/intenthook/intenthook/internal/agent/protocol"
)

// An npm install's Cursor hooks run the project's binary through
// CURSOR_PROJECT_DIR, and doctor names it.
func TestNPMWiring(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX shell commands")
	}
	root, real := agenttest.NPMInstall(t)
	hooks := Hooks()
	for i := range hooks {
		hooks[i].Program = protocol.NPMProgram(Agent())
	}
	if _, err := protocol.WireFlat(root, HooksFile, true, hooks); err != nil {
		t.Fatal(err)
	}
	_, checks := Check(root, protocol.CheckEnv{Getenv: func(string) string { return "" }, LookPath: exec.LookPath})
	if c := agenttest.Check(checks, "cursor hook command"); c.Status != protocol.Pass || !strings.HasSuffix(c.Detail, "→ "+real) {
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
