package git

import "testing"

func TestAllowedKeys(t *testing.T) {
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
[alias]
	st = !sh x
[include]
	path = other
[core "x"]
	eol = lf
[Core] quotePath = false
`
	want := "[core]\n\texcludesfile = ~/.gitignore_global\n[core]\n\tautocrlf = input\n[safe]\n\tdirectory = /work/a\n[safe]\n\tdirectory = *\n[core]\n\tquotepath = false\n"
	if got := string(AllowedKeys([]byte(in))); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
