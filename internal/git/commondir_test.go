package git

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommonDir holds CommonDir to what git rev-parse --git-common-dir
// says, in each shape a .git entry takes.
func TestCommonDir(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	tests := []struct {
		name string
		// setup returns the directory to ask about and the common
		// directory expected ("" for none).
		setup func(t *testing.T) (dir, want string)
	}{
		{"plain repository", func(t *testing.T) (string, string) {
			dir := repo(t, 1)
			return dir, filepath.Join(dir, ".git")
		}},
		{"subdirectory of a repository", func(t *testing.T) (string, string) {
			dir := repo(t, 1)
			sub := filepath.Join(dir, "a", "b")
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			return sub, filepath.Join(dir, ".git")
		}},
		{"linked work tree", func(t *testing.T) (string, string) {
			dir := repo(t, 1)
			wt := filepath.Join(filepath.Dir(dir), "wt2")
			git(t, dir, "worktree", "add", "-q", wt, "-b", "feat")
			return wt, filepath.Join(dir, ".git")
		}},
		{"linked work tree with a relative commondir", func(t *testing.T) (string, string) {
			dir := repo(t, 1)
			wt := filepath.Join(filepath.Dir(dir), "wt3")
			git(t, dir, "worktree", "add", "-q", wt, "-b", "feat3")
			// git writes "../.." today; any relative path is relative to
			// the work tree's gitdir.
			b, err := os.ReadFile(filepath.Join(dir, ".git", "worktrees", "wt3", "commondir"))
			if err != nil || filepath.IsAbs(string(b)) {
				t.Fatalf("commondir: %q %v", b, err)
			}
			return filepath.Join(wt, "sub-not-made"), filepath.Join(dir, ".git")
		}},
		{"submodule-style gitdir file, no commondir", func(t *testing.T) (string, string) {
			dir := repo(t, 1)
			mod := filepath.Join(t.TempDir(), "mod")
			gitDir := filepath.Join(dir, ".git", "modules", "mod")
			// What git submodule leaves: the module's .git a file naming
			// its repository under the superproject's.
			if err := os.MkdirAll(filepath.Dir(gitDir), 0o755); err != nil {
				t.Fatal(err)
			}
			git(t, dir, "init", "-q", "--separate-git-dir", gitDir, mod)
			if b, err := os.ReadFile(filepath.Join(mod, ".git")); err != nil || !strings.HasPrefix(string(b), "gitdir: ") {
				t.Fatalf(".git file: %q %v", b, err)
			}
			return mod, gitDir
		}},
		{"gitdir file naming nothing", func(t *testing.T) (string, string) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, ".git"), []byte("gitdir: /nowhere/at/all\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return dir, ""
		}},
		{"bare repository", func(t *testing.T) (string, string) {
			dir := filepath.Join(t.TempDir(), "bare.git")
			git(t, filepath.Dir(dir), "init", "-q", "--bare", dir)
			return dir, "" // no work tree: no .git entry to read
		}},
		{"no repository", func(t *testing.T) (string, string) {
			return t.TempDir(), ""
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, want := tt.setup(t)
			got, ok := CommonDir(dir)
			if ok != (want != "") {
				t.Fatalf("CommonDir(%s) ok = %v, want %v (%q)", dir, ok, want != "", got)
			}
			if !ok {
				return
			}
			if canonical(got) != canonical(want) {
				t.Errorf("CommonDir(%s) = %s, want %s", dir, got, want)
			}
			if _, err := os.Stat(dir); err == nil {
				if byGit := git(t, dir, "rev-parse", "--path-format=absolute", "--git-common-dir"); canonical(byGit) != canonical(got) {
					t.Errorf("git rev-parse --git-common-dir = %s, CommonDir = %s", byGit, got)
				}
			}
		})
	}
}

func TestWorkTrees(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := repo(t, 1)
	wt := filepath.Join(filepath.Dir(dir), "wt2")
	gone := filepath.Join(filepath.Dir(dir), "wt3")
	git(t, dir, "worktree", "add", "-q", wt, "-b", "feat")
	git(t, dir, "worktree", "add", "-q", gone, "-b", "feat3")
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}
	common, _ := CommonDir(wt)
	got := WorkTrees(common)
	if len(got) != 2 || canonical(got[0]) != canonical(dir) || canonical(got[1]) != canonical(wt) {
		t.Errorf("WorkTrees = %q, want [%s %s]", got, dir, wt)
	}
}
