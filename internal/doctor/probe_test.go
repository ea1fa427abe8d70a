package doctor

import (
	"os"
	"path/filepath"
	"testing"
)

func TestHookRan(t *testing.T) {
	for _, tc := range []struct {
		name, trace, want string
	}{
		{"main work tree", "14:31:48.696539 run-command.c:655       trace: run_command: GIT_EDITOR=: GIT_INDEX_FILE=.git/index .git/hooks/pre-commit\n", ".git/hooks/pre-commit"},
		{"linked work tree", "trace: run_command: GIT_EDITOR=: GIT_INDEX_FILE=/r/.git/worktrees/w/index /r/.git/hooks/pre-commit\n", "/r/.git/hooks/pre-commit"},
		{"husky", "trace: run_command: GIT_INDEX_FILE=/w/.git/index .husky/_/pre-commit\n", ".husky/_/pre-commit"},
		{"commit-msg only", "trace: run_command: GIT_EDITOR=: .git/hooks/commit-msg .git/COMMIT_EDITMSG\n", ""},
		{"another program first", "trace: run_command: git gc --auto\ntrace: run_command: GIT_INDEX_FILE=x .git/hooks/pre-commit\n", ".git/hooks/pre-commit"},
		{"none", "trace: built-in: git commit -q\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "trace")
			if err := os.WriteFile(path, []byte(tc.trace), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := hookRan(path); got != tc.want {
				t.Errorf("hookRan = %q, want %q", got, tc.want)
			}
		})
	}
	if got := hookRan(filepath.Join(t.TempDir(), "absent")); got != "" {
		t.Errorf("hookRan(absent) = %q", got)
	}
}

func TestIsAssignment(t *testing.T) {
	for word, want := range map[string]bool{
		"GIT_EDITOR=:": true, "GIT_INDEX_FILE=/a/b=c": true, "a1=x": true,
		"/a/b=c": false, "=x": false, "1A=x": false, ".git/hooks/pre-commit": false,
	} {
		if got := isAssignment(word); got != want {
			t.Errorf("isAssignment(%q) = %v, want %v", word, got, want)
		}
	}
}
