package gate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/shell"
)

// TestCheckGovernanceDirs: a shell delete of a directory that holds
// governance files is refused whatever the scope; other directories, the
// root and the files below a governance directory are the chain's.
func TestCheckGovernanceDirs(t *testing.T) {
	g := testGate(t, nil)
	g.call.ToolName, g.call.Command = "Bash", "mv x y"
	for _, tc := range []struct {
		path string
		deny bool
	}{
		{".orchestration", true},
		{".orchestration/", true},
		{"src/../.orchestration", true},
		{".orchestration/state", true},
		{".claude", true},
		{".git", true},
		{"src", false},
		{".", false},
		{"", false},
		{".orchestration/notes.md", false},
		{"/tmp/elsewhere", false},
	} {
		d, denied := g.checkGovernanceDirs([]string{tc.path})
		if denied != tc.deny || (denied && (d.Verdict != hook.Deny || d.Code != hook.CodeProtectedPath)) {
			t.Errorf("checkGovernanceDirs(%q) = %+v, %v; want deny %v", tc.path, d, denied, tc.deny)
		}
	}
}

// TestActivations: a virtual environment's own activate script passes;
// one without pyvenv.cfg, outside the workspace or a link asks.
func TestActivations(t *testing.T) {
	g := testGate(t, nil)
	write := func(rel, body string) {
		p := filepath.Join(g.Root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".venv/pyvenv.cfg", "home = /usr/bin\n")
	write(".venv/bin/activate", "VIRTUAL_ENV=x\n")
	write("fake/bin/activate", "echo\n")
	write("linked/pyvenv.cfg", "home = /usr/bin\n")
	if err := os.MkdirAll(filepath.Join(g.Root, "linked/bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(g.Root, "fake/bin/activate"), filepath.Join(g.Root, "linked/bin/activate")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		script string
		opaque bool
	}{
		{".venv/bin/activate", false},
		{"fake/bin/activate", true},
		{"linked/bin/activate", true},
		{"/opt/env/bin/activate", true},
	} {
		a := shell.Analysis{Activates: []string{tc.script}}
		g.activations(&a)
		if (len(a.Opaque) == 1) != tc.opaque || len(a.Activates) != 0 {
			t.Errorf("activations(%q) = %+v; want opaque %v", tc.script, a, tc.opaque)
		}
	}
}
