package workspace

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ignoreRules are gitignore(5) cases: anchoring, directory-only patterns,
// negation, "**", classes, escapes and trailing spaces.
const ignoreRules = `# generated output
*.log
!keep.log
build/
/docs/generated/**
/top.txt
**/cache
a/**/z.txt
src/*.tmp
[Tt]emp?
file[!0-9].bin
\#hash
\!bang
trailing   
escaped\ 
vendor/**
!vendor/keep.go
dir/
!dir/inner.txt
.claude/
`

var ignorePaths = []string{
	"x.log", "a/b/x.log", "keep.log", "a/keep.log", "x.logs",
	"build/out.bin", "src/build/out.bin", "build",
	"docs/generated/a.md", "docs/generated/x/y.md", "docs/a.md", "a/docs/generated/b.md",
	"top.txt", "a/top.txt",
	"cache/x", "a/cache/x", "a/b/cache/x", "cachex/y",
	"a/z.txt", "a/b/c/z.txt", "b/a/z.txt",
	"src/x.tmp", "src/a/x.tmp", "x.tmp",
	"Temp1", "temp2", "a/Temp9", "Tempxx",
	"filea.bin", "file1.bin",
	"#hash", "!bang", "trailing", "trailing   ", "escaped ",
	"vendor/a.go", "vendor/keep.go", "vendor/x/keep.go",
	"dir/inner.txt", "dir/other.txt",
	".claude/settings.json", "src/.claude/x",
	"src/main.go", "README.md",
}

// TestIgnoreAgreesWithGit runs every path through `git check-ignore` in a
// real repository with the same rules as its .gitignore and compares.
func TestIgnoreAgreesWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	git := func(stdin string, args ...string) (string, error) {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Stdin = strings.NewReader(stdin)
		var out bytes.Buffer
		cmd.Stdout = &out
		err := cmd.Run()
		return out.String(), err
	}
	if _, err := git("", "init", "-q"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(ignoreRules), 0o644); err != nil {
		t.Fatal(err)
	}
	// check-ignore needs directories to exist to know they are directories.
	for _, p := range ignorePaths {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, nil, 0o644); err != nil && !os.IsExist(err) {
			// "build" is both a file here and a directory above: keep the directory.
			if _, statErr := os.Stat(full); statErr != nil {
				t.Fatal(err)
			}
		}
	}
	out, err := git(strings.Join(ignorePaths, "\n")+"\n", "check-ignore", "--no-index", "--stdin")
	if err != nil && out == "" {
		t.Fatalf("git check-ignore: %v", err)
	}
	gitSays := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		gitSays[l] = true
	}
	if len(gitSays) < 20 {
		t.Fatalf("git ignores only %d paths: the comparison would prove little", len(gitSays))
	}
	ig := ParseIgnore([]byte(ignoreRules))
	for _, p := range ignorePaths {
		st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p)))
		isDir := err == nil && st.IsDir()
		if got := ig.Match(p, isDir); got != gitSays[p] {
			t.Errorf("Match(%q) = %v, git check-ignore says %v", p, got, gitSays[p])
		}
	}
}

func TestIgnoreEmpty(t *testing.T) {
	var none *Ignore
	if none.Match("x", false) || ParseIgnore(nil).Match("x", false) || ParseIgnore([]byte("# only\n\n!\n/\n")).Match("x", false) {
		t.Error("empty ignore matches")
	}
}
