package copilot

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/agent/protocol"
)

// An npm install's Copilot CLI hooks run the project's binary by a path
// relative to the repository's root, the working directory each names, and
// doctor names it.
func TestNPMWiring(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX shell commands")
	}
	root, real := fakeNPMInstall(t)
	if _, err := wire(root, true); err != nil {
		t.Fatal(err)
	}
	_, checks := Check(root, protocol.CheckEnv{Getenv: func(string) string { return "" }, LookPath: exec.LookPath})
	if c := find(checks, "copilot hook command"); c.Status != protocol.Pass || c.Detail != "node_modules/.bin/intenthook → "+filepath.Join(root, "node_modules/.bin/intenthook")+" → "+real {
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
