package git

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// git runs the real git in dir with a fixed identity and no user config, and
// returns its trimmed stdout.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// repo makes a repository with n commits on branch main.
func repo(t *testing.T, n int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "init", "-q", "-b", "main")
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(strings.Repeat("x", i+1)), 0o644); err != nil {
			t.Fatal(err)
		}
		git(t, dir, "add", "f.txt")
		git(t, dir, "commit", "-q", "-m", "c")
	}
	return dir
}

func TestRevision(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	tests := []struct {
		name string
		// setup returns the directory to ask about and the expected answer
		// ("" for none); a non-empty answer is checked to be 40 hex digits.
		setup func(t *testing.T) (dir, want string)
	}{
		{"loose ref", func(t *testing.T) (string, string) {
			dir := repo(t, 2)
			if _, err := os.Stat(filepath.Join(dir, ".git", "refs", "heads", "main")); err != nil {
				t.Fatalf("expected a loose ref: %v", err)
			}
			return dir, git(t, dir, "rev-parse", "HEAD")
		}},
		{"from a subdirectory", func(t *testing.T) (string, string) {
			dir := repo(t, 1)
			sub := filepath.Join(dir, "a", "b")
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			return sub, git(t, dir, "rev-parse", "HEAD")
		}},
		{"packed ref", func(t *testing.T) (string, string) {
			dir := repo(t, 2)
			git(t, dir, "tag", "-a", "-m", "annotated", "v1") // adds a ^peel line
			git(t, dir, "pack-refs", "--all")
			if _, err := os.Stat(filepath.Join(dir, ".git", "refs", "heads", "main")); err == nil {
				t.Fatal("pack-refs left a loose ref")
			}
			return dir, git(t, dir, "rev-parse", "HEAD")
		}},
		{"loose ref newer than packed", func(t *testing.T) (string, string) {
			dir := repo(t, 1)
			git(t, dir, "pack-refs", "--all")
			// The next commit writes a loose ref that shadows the packed one.
			if err := os.WriteFile(filepath.Join(dir, "g.txt"), []byte("g"), 0o644); err != nil {
				t.Fatal(err)
			}
			git(t, dir, "add", "g.txt")
			git(t, dir, "commit", "-q", "-m", "c2")
			return dir, git(t, dir, "rev-parse", "HEAD")
		}},
		{"detached head", func(t *testing.T) (string, string) {
			dir := repo(t, 3)
			first := git(t, dir, "rev-list", "--max-parents=0", "HEAD")
			git(t, dir, "checkout", "-q", "--detach", first)
			if first == git(t, dir, "rev-parse", "main") {
				t.Fatal("detached commit should differ from main")
			}
			return dir, first
		}},
		{"worktree", func(t *testing.T) (string, string) {
			dir := repo(t, 1)
			wt := filepath.Join(filepath.Dir(dir), "wt")
			git(t, dir, "worktree", "add", "-q", "-b", "other", wt)
			if err := os.WriteFile(filepath.Join(wt, "w.txt"), []byte("w"), 0o644); err != nil {
				t.Fatal(err)
			}
			git(t, wt, "add", "w.txt")
			git(t, wt, "commit", "-q", "-m", "in worktree")
			want := git(t, wt, "rev-parse", "HEAD")
			if want == git(t, dir, "rev-parse", "HEAD") {
				t.Fatal("worktree commit should differ from main")
			}
			return wt, want
		}},
		{"worktree with packed refs", func(t *testing.T) (string, string) {
			dir := repo(t, 2)
			wt := filepath.Join(filepath.Dir(dir), "wt")
			git(t, dir, "worktree", "add", "-q", "-b", "other", wt)
			git(t, dir, "pack-refs", "--all")
			return wt, git(t, wt, "rev-parse", "HEAD")
		}},
		{"main checkout beside a worktree", func(t *testing.T) (string, string) {
			dir := repo(t, 1)
			git(t, dir, "worktree", "add", "-q", "--detach", filepath.Join(filepath.Dir(dir), "wt"))
			return dir, git(t, dir, "rev-parse", "HEAD")
		}},
		{"unborn branch", func(t *testing.T) (string, string) {
			return repo(t, 0), ""
		}},
		{"no repository", func(t *testing.T) (string, string) {
			return t.TempDir(), ""
		}},
		{"ref escaping the git directory", func(t *testing.T) (string, string) {
			dir := repo(t, 1)
			rev := git(t, dir, "rev-parse", "HEAD")
			if err := os.WriteFile(filepath.Join(dir, "outside"), []byte(rev+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/../../outside\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return dir, ""
		}},
		{"symbolic ref loop", func(t *testing.T) (string, string) {
			dir := repo(t, 1)
			heads := filepath.Join(dir, ".git", "refs", "heads")
			if err := os.WriteFile(filepath.Join(heads, "a"), []byte("ref: refs/heads/b\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(heads, "b"), []byte("ref: refs/heads/a\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/a\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return dir, ""
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, want := tt.setup(t)
			if want != "" && !isHex(want) {
				t.Fatalf("bad expectation %q", want)
			}
			if got := Revision(dir); got != want {
				t.Errorf("Revision(%s) = %q, want %q", dir, got, want)
			}
		})
	}
}

func TestBranchTips(t *testing.T) {
	dir := repo(t, 3)
	git(t, dir, "branch", "packed", "HEAD~1")
	git(t, dir, "pack-refs", "--all")
	git(t, dir, "branch", "loose/deep", "HEAD~2")
	git(t, dir, "tag", "v1", "HEAD~2") // tags are not branches
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, dir, "worktree", "add", "-q", "-b", "side", wt, "HEAD~1")
	rev := func(r string) string { return git(t, dir, "rev-parse", r) }
	want := map[string]bool{rev("main"): true, rev("HEAD~1"): true, rev("HEAD~2"): true}
	tests := []struct {
		name, root, head string
	}{
		{"main work tree", dir, rev("main")},
		{"linked worktree reads the shared refs", wt, rev("HEAD~1")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			head, tips, ok := BranchTips(tt.root)
			if !ok || head != tt.head {
				t.Fatalf("BranchTips = %q, %v; want head %q", head, ok, tt.head)
			}
			got := map[string]bool{}
			for _, c := range tips {
				got[c] = true
			}
			if len(got) != len(tips) || len(got) != len(want) {
				t.Fatalf("tips %q, want the %d distinct commits of main, packed, loose/deep and side", tips, len(want))
			}
			for c := range want {
				if !got[c] {
					t.Errorf("tips %q lack %s", tips, c)
				}
			}
		})
	}
	t.Run("packed refs too large to read", func(t *testing.T) {
		f, err := os.OpenFile(filepath.Join(dir, ".git", "packed-refs"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(strings.Repeat("# padding\n", maxPackedRefs/10+1)))
		f.Close()
		if _, _, ok := BranchTips(dir); ok {
			t.Error("ok with an unread packed-refs")
		}
	})
	if _, _, ok := BranchTips(t.TempDir()); ok {
		t.Error("ok outside a repository")
	}
}
