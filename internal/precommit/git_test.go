package precommit

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/digest"
)

func TestReadReplies(t *testing.T) {
	stream := "0123abcd blob 5\nhello\n:0:gone missing\n4567 blob 0\n\n89ab blob 3\nxyz\n"
	type got struct {
		kind, body string
		missing    bool
	}
	var out []got
	err := readReplies(bufio.NewReader(strings.NewReader(stream)), 4, func(i int, obj *object) error {
		if obj == nil {
			out = append(out, got{missing: true})
			return nil
		}
		if i == 3 {
			// Leave the body unread: readReplies must skip it.
			out = append(out, got{kind: obj.Type})
			return nil
		}
		b, err := io.ReadAll(obj.Body)
		out = append(out, got{kind: obj.Type, body: string(b)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []got{{"blob", "hello", false}, {missing: true}, {"blob", "", false}, {"blob", "", false}}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("replies %v, want %v", out, want)
	}
}

func TestReadRepliesErrors(t *testing.T) {
	for _, stream := range []string{
		"",                     // git died
		"abcd blob x\n",        // bad size
		"abcd blob 5\nhel",     // short body
		"abcd blob 2\nhiX",     // no newline after the body
		"what is this reply\n", // not a header
	} {
		err := readReplies(bufio.NewReader(strings.NewReader(stream)), 1, func(int, *object) error { return nil })
		if err == nil {
			t.Errorf("readReplies(%q): no error", stream)
		}
	}
}

func TestRepoPaths(t *testing.T) {
	tests := []struct {
		rp        repoPaths
		git, root string
		toRootOK  bool
		backToGit string
		toGitOK   bool
	}{
		{repoPaths{}, "src/a.go", "src/a.go", true, "src/a.go", true},
		{repoPaths{prefix: "sub/"}, "sub/src/a.go", "src/a.go", true, "sub/src/a.go", true},
		{repoPaths{prefix: "sub/"}, "other/a.go", "", false, "", false},
		{repoPaths{above: "repo/"}, "src/a.go", "repo/src/a.go", true, "src/a.go", true},
	}
	for _, tt := range tests {
		rel, ok := tt.rp.toRoot(tt.git)
		if ok != tt.toRootOK || (ok && rel != tt.root) {
			t.Errorf("%+v.toRoot(%q) = %q %v, want %q %v", tt.rp, tt.git, rel, ok, tt.root, tt.toRootOK)
		}
		if !ok {
			continue
		}
		back, ok := tt.rp.toGit(rel)
		if ok != tt.toGitOK || back != tt.backToGit {
			t.Errorf("%+v.toGit(%q) = %q %v", tt.rp, rel, back, ok)
		}
	}
	if _, ok := (repoPaths{above: "repo/"}).toGit(".orchestration/active_intents.yaml"); ok {
		t.Error("a catalog above the work tree is not in its index")
	}
}

func TestGitEnvMakesHookPathsAbsolute(t *testing.T) {
	wd, _ := os.Getwd()
	got := gitEnv([]string{"GIT_INDEX_FILE=.git/next-index.lock", "GIT_DIR=/abs/.git", "HOME=rel", "GIT_WORK_TREE="})
	want := []string{"GIT_INDEX_FILE=" + filepath.Join(wd, ".git/next-index.lock"), "GIT_DIR=/abs/.git", "HOME=rel", "GIT_WORK_TREE="}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("gitEnv = %v, want %v", got, want)
	}
}

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
	g, rp, err := locate(context.Background(), root, root)
	if err != nil {
		t.Fatal(err)
	}
	if rp.prefix != "sub/" {
		t.Fatalf("prefix %q, want sub/", rp.prefix)
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
	g, rp, err := locate(context.Background(), dir, dir)
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
