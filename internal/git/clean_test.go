package git

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestAllowedSettings(t *testing.T) {
	in := `[core]
	excludesFile = ~/.gitignore_global
	autocrlf = input
	fsmonitor = /tmp/evil
	hooksPath = /tmp/h
	pager = evil
[filter "ih"]
	clean = sh evil.sh
[safe]
	directory = /work/a
	directory = *
	directory = "/work/with space" ; a comment
	directory = /a\nb
[alias]
	st = !sh x
[include]
	path = other
[core "x"]
	eol = lf
[Core] quotePath = false
[core]
	ignorecase
`
	want := []Setting{
		{"core.excludesfile", "~/.gitignore_global"}, {"core.autocrlf", "input"},
		{"safe.directory", "/work/a"}, {"safe.directory", "*"}, {"safe.directory", "/work/with space"},
		{"core.quotepath", "false"}, {"core.ignorecase", "true"},
	}
	if got := AllowedSettings([]byte(in)); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestCleanEnvReal has a real git read the settings from the environment
// the hooks give it: the allow-listed keys of the user's global file, and
// nothing else of it (no filter, no alias).
func TestCleanEnvReal(t *testing.T) {
	home := t.TempDir()
	global := filepath.Join(home, "gitconfig")
	if err := os.WriteFile(global, []byte("[core]\n\tautocrlf = input\n[filter \"ih\"]\n\tclean = sh evil.sh\n[safe]\n\tdirectory = \"/work/with space\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_GLOBAL", global)
	cmd := exec.Command("git", "config", "--list", "--show-origin")
	cmd.Env = CleanEnv()
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	for _, want := range []string{"command line:\tcore.autocrlf=input", "command line:\tsafe.directory=/work/with space"} {
		if !strings.Contains(got, want) {
			t.Errorf("git sees:\n%s\nwant a line %q", got, want)
		}
	}
	if strings.Contains(got, "filter.ih") || strings.Contains(got, global) {
		t.Errorf("git sees the user's file itself:\n%s", got)
	}
}
