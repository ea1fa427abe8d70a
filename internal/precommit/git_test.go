package precommit

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/git"
)

// repo makes a git repository with files written and staged.
func repo(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	run(t, dir, "init", "-q")
	for name, content := range files {
		write(t, filepath.Join(dir, name), content)
	}
	run(t, dir, "add", "-A")
	return dir
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func run(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.email=t@example.com", "-c", "user.name=t"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestLoadReadsTheIndex(t *testing.T) {
	dir := repo(t, map[string]string{
		"sub/.orchestration/active_intents.yaml": testCatalog,
		"sub/.orchestration/.intentignore":       "ignored.txt\n",
		"sub/src/hooks/a.go":                     "staged",
		"sub/1:odd name.go":                      "odd",
		"sub/gone.go":                            "x",
		"outside.go":                             "not governed",
	})
	run(t, dir, "commit", "-q", "-m", "base", "--", "sub/gone.go")
	run(t, dir, "rm", "-q", "--cached", "sub/gone.go")
	// The work tree differs from the index: the index is what counts.
	write(t, filepath.Join(dir, "sub/src/hooks/a.go"), "changed after staging")
	write(t, filepath.Join(dir, "sub/.orchestration/.intentignore"), "")

	root := filepath.Join(dir, "sub")
	g, rp, err := git.Locate(context.Background(), root, root)
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := rp.ToGit("x"); p != "sub/x" {
		t.Fatalf("ToGit(x) = %q, want sub/x", p)
	}
	s, err := load(context.Background(), g, rp, root)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]Staged{}
	for _, st := range s.Staged {
		byPath[st.Path] = st
	}
	if _, ok := byPath["outside.go"]; ok {
		t.Error("a path outside the workspace root was judged")
	}
	if got := byPath["src/hooks/a.go"]; got.Hash != digest.String("staged") || got.Deleted {
		t.Errorf("a.go = %+v, want the staged content's hash", got)
	}
	if got := byPath["1:odd name.go"]; got.Hash != digest.String("odd") {
		t.Errorf("odd name = %+v", got)
	}
	if got := byPath["gone.go"]; !got.Deleted {
		t.Errorf("gone.go = %+v, want deleted", got)
	}
	if !s.Ignore.Match("ignored.txt", false) {
		t.Error("the staged .intentignore was not used")
	}
	if s.Catalog == nil || len(s.Catalog.All()) != 4 {
		t.Errorf("catalog not read from the index: %+v", s.Catalog)
	}
}

func TestLoadPathWithNewline(t *testing.T) {
	dir := repo(t, map[string]string{
		".orchestration/active_intents.yaml": testCatalog,
		"src/hooks/line\nbreak.go":           "x",
	})
	g, rp, err := git.Locate(context.Background(), dir, dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := load(context.Background(), g, rp, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range s.Staged {
		if st.Path == "src/hooks/line\nbreak.go" && st.Unreadable != "" {
			return
		}
	}
	t.Errorf("the path with a line break is not marked unreadable: %+v", s.Staged)
}

func TestRunUngoverned(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": "x"})
	r, err := Run(context.Background(), Options{Start: dir})
	if err != nil || r.Governed {
		t.Errorf("Run = %+v, %v; want ungoverned", r, err)
	}
}

func TestRunNotAGitRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".orchestration/active_intents.yaml"), testCatalog)
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	if _, err := Run(context.Background(), Options{Start: dir}); err == nil || !strings.Contains(err.Error(), "not in a git work tree") {
		t.Errorf("err = %v", err)
	}
}
