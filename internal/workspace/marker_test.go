package workspace

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestMarker(t *testing.T) {
	top := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", top).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	sub := filepath.Join(top, "svc")
	deep := filepath.Join(sub, "src", "pkg")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, added, err := Mark(sub); err != nil || !added {
		t.Fatalf("Mark = %v, %v", added, err)
	}
	if _, added, _ := Mark(sub); added {
		t.Error("a second Mark added the root again")
	}
	catalog := filepath.Join(sub, filepath.FromSlash(Marker))
	for _, c := range []struct {
		name       string
		catalog    bool
		dir, want  string
		wantMarked string
	}{
		{"below the root, catalog gone", false, deep, sub, sub},
		{"the root itself, catalog gone", false, sub, sub, sub},
		{"beside the root: not marked", false, top, "", ""},
		{"catalog there: not missing", true, deep, "", sub},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.RemoveAll(filepath.Join(sub, ".orchestration"))
			if c.catalog {
				os.MkdirAll(filepath.Dir(catalog), 0o755)
				os.WriteFile(catalog, []byte("active_intents: []\n"), 0o644)
			}
			if got := Marked(c.dir); got != c.wantMarked {
				t.Errorf("Marked(%s) = %q, want %q", c.dir, got, c.wantMarked)
			}
			if got := Missing("", "", c.dir, ""); got != c.want {
				t.Errorf("Missing(cwd %s) = %q, want %q", c.dir, got, c.want)
			}
			// The project directory, when set, is the only anchor.
			if got := Missing("", top, c.dir, c.dir); got != "" {
				t.Errorf("Missing(project dir %s) = %q, want none", top, got)
			}
		})
	}
	path, removed, err := Unmark(sub)
	if err != nil || !removed {
		t.Fatalf("Unmark = %v, %v", removed, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the marker %s is still there after its last root went", path)
	}
	if got := Missing("", "", deep, ""); got != "" {
		t.Errorf("Missing after Unmark = %q", got)
	}
	if p, _, _ := Mark(t.TempDir()); p != "" {
		t.Errorf("Mark outside git = %q, want none", p)
	}
}
