package selfprog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/hookconfig"
	"github.com/intenthook/intenthook/internal/shell"
)

// npmLayout lays out the workspace's npm install as npm does: the
// package's binary, and .bin/intenthook a link to it.
func npmLayout(t *testing.T, root string) {
	t.Helper()
	pkg := filepath.Join(root, filepath.FromSlash(hookconfig.NPMBinary))
	if err := os.MkdirAll(filepath.Dir(pkg), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pkg, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, filepath.FromSlash(hookconfig.NPMLink))
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../intenthook/bin/intenthook", link); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestRuns(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, root string)
		cwd   string // relative to the root
		call  shell.SelfCall
		ok    bool
		why   string // a part of the reason when not ok
	}{
		{name: "bare name", call: shell.SelfCall{Kind: shell.SelfSelect}, ok: true},
		{name: "npx without --no-install", call: shell.SelfCall{Kind: shell.SelfSelect, Runner: "npx", Fetches: true}, why: "may download"},
		{name: "unplaced", call: shell.SelfCall{Kind: shell.SelfSelect, Unplaced: true}, why: "does not say which program"},
		{name: "runner finds the workspace's link", setup: npmLayout, call: shell.SelfCall{Kind: shell.SelfSelect, Runner: "npx", Dir: "."}, ok: true},
		{name: "runner from a subdirectory finds the root's link", setup: npmLayout, cwd: "src", call: shell.SelfCall{Kind: shell.SelfSelect, Runner: "npx", Dir: "."}, ok: true},
		{name: "runner with no install runs PATH's", call: shell.SelfCall{Kind: shell.SelfSelect, Runner: "npx", Dir: "."}, ok: true},
		{
			name: "a planted .bin below the root",
			setup: func(t *testing.T, root string) {
				npmLayout(t, root)
				write(t, filepath.Join(root, "src", "node_modules", ".bin", "intenthook"), "#!/bin/sh\nexit 0\n")
			},
			cwd: "src", call: shell.SelfCall{Kind: shell.SelfSelect, Runner: "npx", Dir: "."},
			why: "not npm's link in the workspace root",
		},
		{
			name: "a package.json declaring the bin",
			setup: func(t *testing.T, root string) {
				npmLayout(t, root)
				write(t, filepath.Join(root, "src", "package.json"), `{"name": "x", "bin": {"intenthook": "run.sh"}}`)
			},
			cwd: "src", call: shell.SelfCall{Kind: shell.SelfSelect, Runner: "npx", Dir: "."},
			why: "declares a bin named intenthook",
		},
		{
			name: "the root's link pointing at another package",
			setup: func(t *testing.T, root string) {
				npmLayout(t, root)
				write(t, filepath.Join(root, "node_modules", "other", "run.sh"), "#!/bin/sh\n")
				link := filepath.Join(root, filepath.FromSlash(hookconfig.NPMLink))
				if err := os.Remove(link); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink("../other/run.sh", link); err != nil {
					t.Fatal(err)
				}
			},
			call: shell.SelfCall{Kind: shell.SelfSelect, Runner: "npx", Dir: "."},
			why:  "does not run the workspace's package",
		},
		{name: "the package's own binary by path", setup: npmLayout, call: shell.SelfCall{Kind: shell.SelfSelect, Path: hookconfig.NPMBinary}, ok: true},
		{
			name: "a script by path",
			setup: func(t *testing.T, root string) {
				write(t, filepath.Join(root, "bin", "intenthook"), "#!/bin/sh\nexit 0\n")
			},
			call: shell.SelfCall{Kind: shell.SelfSelect, Path: "bin/intenthook"},
			why:  "bin/intenthook is not an installed intenthook",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			if tc.setup != nil {
				tc.setup(t, root)
			}
			cwd := filepath.Join(root, tc.cwd)
			if err := os.MkdirAll(cwd, 0o755); err != nil {
				t.Fatal(err)
			}
			ok, why := Home{Root: root, Cwd: cwd}.Runs(tc.call)
			if ok != tc.ok || !strings.Contains(why, tc.why) || ok && why != "" {
				t.Errorf("Runs = %v, %q; want %v, a reason containing %q", ok, why, tc.ok, tc.why)
			}
		})
	}
}

func TestDenyNamesTheFormThatWorks(t *testing.T) {
	root := t.TempDir()
	npmLayout(t, root)
	h := Home{Root: root, Cwd: filepath.Join(root, "src")}
	d := h.Deny(shell.SelfCall{Kind: shell.SelfSubmit, Args: []string{"submit", "INT-1"}, Runner: "npx", Fetches: true}, "npx may download", "npx intenthook submit INT-1", "s1")
	if d.Verdict != hook.Deny || d.Code != hook.CodeShellUnsafe {
		t.Fatalf("verdict %v code %q; want a shell_unsafe deny", d.Verdict, d.Code)
	}
	for _, want := range []string{"no submission", "`npx --no-install intenthook submit INT-1`", "session=s1"} {
		if !strings.Contains(d.Message, want) {
			t.Errorf("message lacks %q:\n%s", want, d.Message)
		}
	}
	d = h.Deny(shell.SelfCall{Kind: shell.SelfSelect, Args: []string{"select", "INT-1"}, Path: "bin/intenthook"}, "not installed", "bin/intenthook select INT-1", "s1")
	if !strings.Contains(d.Message, "../"+hookconfig.NPMBinary+" select INT-1") {
		t.Errorf("message does not name the package's binary from the call's directory:\n%s", d.Message)
	}
}
