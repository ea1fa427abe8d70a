// Package agenttest holds what the agents' tests share: a project as an
// npm install leaves it, and a doctor check found by name. Only tests
// import it.
package agenttest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/intenthook/intenthook/internal/agent/protocol"
)

// NPMInstall lays out what npm leaves in a governed project (a catalog in
// .orchestration/): the package's binary node_modules/intenthook/bin/intenthook,
// here a script that prints "project" and its arguments, and npm's link
// node_modules/.bin/intenthook to it. It returns the project's root and the
// script's path; without symlinks the test is skipped.
func NPMInstall(t testing.TB) (root, real string) {
	t.Helper()
	root = t.TempDir()
	catalog := filepath.Join(root, ".orchestration", "active_intents.yaml")
	if err := os.MkdirAll(filepath.Dir(catalog), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(catalog, []byte("active_intents: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
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

// Check returns the check named name, or the zero Check when there is none.
func Check(checks []protocol.Check, name string) protocol.Check {
	for _, c := range checks {
		if c.Name == name {
			return c
		}
	}
	return protocol.Check{}
}
