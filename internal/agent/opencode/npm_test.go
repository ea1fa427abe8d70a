package opencode

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/agent/protocol"
)

// An npm install's OpenCode plugin runs the project's binary, two
// directories up from its own file; doctor names it.
func TestNPMWiring(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks")
	}
	root, real := fakeNPMInstall(t)
	if _, err := wire(root, true); err != nil {
		t.Fatal(err)
	}
	_, checks := Check(root, protocol.CheckEnv{Getenv: func(string) string { return "" }, LookPath: func(string) (string, error) { return "", os.ErrNotExist }})
	if c := find(checks, "opencode hook command"); c.Status != protocol.Pass || c.Detail != filepath.Join(root, "node_modules/.bin/intenthook")+" → "+real {
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

func find(checks []protocol.Check, name string) protocol.Check {
	for _, c := range checks {
		if c.Name == name {
			return c
		}
	}
	return protocol.Check{}
}

// fakeNPMInstall lays out what npm leaves in a project: its link to the
// package's binary, here a script that says it ran.
func fakeNPMInstall(t *testing.T) (root, real string) {
	root = t.TempDir()
	real = filepath.Join(root, "node_modules", "intenthook", "bin", "intenthook")
	link := filepath.Join(root, "node_modules", ".bin", "intenthook")
	for _, d := range []string{filepath.Dir(real), filepath.Dir(link)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(real, []byte("#!/bin/sh\necho project \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../intenthook/bin/intenthook", link); err != nil {
		t.Skip("no symlinks here:", err)
	}
	return root, real
}
