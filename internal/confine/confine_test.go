package confine

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestWritable(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{".orchestration/active_intents.yaml", ".orchestration/ledger/a/000001.jsonl", ".orchestration/state/pending/x", ".orchestration/state/sessions/s.json", "src/a.go", "README.md", ".claude/settings.json", ".claude/agents/a.md"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(".orchestration", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	ro := []string{".orchestration/active_intents.yaml", ".orchestration/state/pending", ".claude/settings.json", ".orchestration/agents/**", ".git/hooks"}
	dirs, files := Writable(root, ro)
	rel := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			r, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(r))
		}
		slices.Sort(out)
		return out
	}
	wantDirs := []string{".claude/agents", ".orchestration/ledger", ".orchestration/state/sessions", "src"}
	wantFiles := []string{"README.md"}
	if got := rel(dirs); !slices.Equal(got, wantDirs) {
		t.Errorf("dirs = %q, want %q", got, wantDirs)
	}
	if got := rel(files); !slices.Equal(got, wantFiles) {
		t.Errorf("files = %q, want %q", got, wantFiles)
	}
}

func TestOutside(t *testing.T) {
	for _, tc := range []struct {
		root string
		dirs []string
		want []string
		held bool
	}{
		{"/home/u/ws", []string{"/tmp", "/home/u/.cache"}, []string{"/tmp", "/home/u/.cache"}, false},
		{"/tmp/ws", []string{"/tmp", "/home/u/.cache"}, []string{"/home/u/.cache"}, true},
		{"/tmp", []string{"/tmp"}, nil, true},
		{"/tmpfoo/ws", []string{"/tmp"}, []string{"/tmp"}, false},
	} {
		got, held := Outside(tc.root, tc.dirs)
		if !slices.Equal(got, tc.want) || held != tc.held {
			t.Errorf("Outside(%q, %q) = %q, %v; want %q, %v", tc.root, tc.dirs, got, held, tc.want, tc.held)
		}
	}
}

func TestArgsRoundTrip(t *testing.T) {
	for _, offline := range []bool{false, true} {
		args := Args([]string{"/a", "/b c"}, []string{"/f"}, "/t", offline, []string{"sh", "-c", "--rw x"})
		if args[0] != Arg {
			t.Fatalf("args[0] = %q", args[0])
		}
		h, ok := parse(args[1:])
		if !ok || h.offline != offline || !slices.Equal(h.dirs, []string{"/a", "/b c"}) || !slices.Equal(h.files, []string{"/f"}) || h.tmp != "/t" || !slices.Equal(h.argv, []string{"sh", "-c", "--rw x"}) {
			t.Errorf("offline %v: parse = %+v %v", offline, h, ok)
		}
	}
	if _, ok := parse([]string{"--bogus"}); ok {
		t.Error("parse accepted an unknown option")
	}
	if _, ok := parse([]string{"--rw", "/a", "--"}); ok {
		t.Error("parse accepted no program")
	}
	if h, ok := parse([]string{"--", "--offline=x"}); !ok || h.offline || !slices.Equal(h.argv, []string{"--offline=x"}) {
		t.Errorf("a program named --offline: %+v %v", h, ok)
	}
}
