package cursor

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

// An npm install's Cursor hooks run the package's binary (never npm's
// link) through CURSOR_PROJECT_DIR, and doctor names it.
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
	if c := agenttest.Check(checks, "cursor hook command"); c.Status != protocol.Pass || c.Detail != real {
		t.Fatalf("doctor: %+v", c)
	}
	want := `"$CURSOR_PROJECT_DIR"/node_modules/intenthook/bin/intenthook pre --agent cursor`
	if got := hooks[0].Command(); got != want {
		t.Fatalf("command %q, want %q", got, want)
	}
	cmd := exec.Command("sh", "-c", want)
	cmd.Dir, cmd.Env = t.TempDir(), append(os.Environ(), "CURSOR_PROJECT_DIR="+root, "PATH=/usr/bin:/bin")
	if out, err := cmd.CombinedOutput(); err != nil || string(out) != "project pre --agent cursor\n" {
		t.Fatalf("the wiring: %q %v", out, err)
	}
}

// The hooks an older intenthook wrote ran npm's link: doctor warns, and
// init rewrites them once, keeping the file's other entries.
func TestNPMWiringMigrated(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX shell commands")
	}
	root, _ := agenttest.NPMInstall(t)
	old := `{"version":1,"hooks":{"preToolUse":[{"command":"\"$CURSOR_PROJECT_DIR\"/node_modules/.bin/intenthook pre --agent cursor"},{"command":"lint"}],"postToolUse":[{"command":"\"$CURSOR_PROJECT_DIR\"/node_modules/.bin/intenthook post --agent cursor"}]}}`
	path := filepath.Join(root, HooksFile)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	env := protocol.CheckEnv{Getenv: func(string) string { return "" }, LookPath: exec.LookPath}
	_, checks := Check(root, env)
	if c := agenttest.Check(checks, "cursor hook command"); c.Status != protocol.Warn || !strings.Contains(c.Detail, "npm's link") {
		t.Fatalf("doctor on the old wiring: %+v", c)
	}
	hooks := Hooks()
	for i := range hooks {
		hooks[i].Program = protocol.NPMProgram(Agent())
	}
	ch, err := protocol.WireFlat(root, HooksFile, true, hooks)
	if err != nil || ch.Action != protocol.Updated || !strings.Contains(ch.Detail, "rewrote 2 hook command(s)") {
		t.Fatalf("init: %+v %v", ch, err)
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), ".bin") || !strings.Contains(string(data), `"lint"`) {
		t.Fatalf("after init:\n%s", data)
	}
	if ch, err := protocol.WireFlat(root, HooksFile, true, hooks); err != nil || ch.Action != protocol.Kept {
		t.Fatalf("init again: %+v %v", ch, err)
	}
	_, checks = Check(root, env)
	if c := agenttest.Check(checks, "cursor hook command"); c.Status != protocol.Pass {
		t.Fatalf("doctor after init: %+v", c)
	}
}
