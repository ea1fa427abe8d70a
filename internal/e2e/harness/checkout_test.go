package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitIn runs git in dir and returns its output.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return string(out)
}

// TestRunLeavesCheckoutClean runs a stand-in client the way make e2e runs
// the real ones, from inside a checkout: whatever it writes relative to its
// working directory, $PWD, $OLDPWD or $INIT_CWD (npm's) lands in its own
// workspace, and the checkout's git status stays empty.
func TestRunLeavesCheckoutClean(t *testing.T) {
	checkout := t.TempDir()
	gitIn(t, checkout, "init", "-q")
	if err := os.WriteFile(filepath.Join(checkout, "README.md"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, checkout, "add", "README.md")
	gitIn(t, checkout, "commit", "-qm", "init")
	t.Chdir(checkout)
	t.Setenv("PWD", checkout)
	t.Setenv("OLDPWD", checkout)
	t.Setenv("INIT_CWD", checkout)

	ck, err := OpenCheckout(".")
	if err != nil {
		t.Fatal(err)
	}
	leave, err := Leave()
	if err != nil {
		t.Fatal(err)
	}
	defer leave()

	ws, home := t.TempDir(), t.TempDir()
	const script = `mkdir -p docs && echo c > docs/c.txt
for d in "$PWD" "$OLDPWD" "$INIT_CWD"; do
	[ -n "$d" ] && (cd "$d" && mkdir -p docs && echo c > docs/c.txt)
done
exit 0`
	c := Client{
		Name:      "stand-in",
		configure: func(home, ws, url string) error { return nil },
		argv:      func(bin, prompt string) []string { return []string{bin, "-c", script} },
		env:       func(home, url string) []string { return []string{"HOME=" + home} },
	}
	if out, err := c.Run("/bin/sh", ws, home, os.Getenv("PATH"), "http://127.0.0.1:1"); err != nil {
		t.Fatalf("run: %v: %s", err, out)
	}
	if _, err := os.Stat(filepath.Join(ws, "docs", "c.txt")); err != nil {
		t.Errorf("the client's write did not land in its workspace: %v", err)
	}
	if st := gitIn(t, checkout, "status", "--porcelain"); st != "" {
		t.Errorf("git status --porcelain in the checkout after the run:\n%s", st)
	}
	if changed, err := ck.Changed(); err != nil || len(changed) > 0 {
		t.Errorf("Changed() = %v, %v; want none", changed, err)
	}

	// And the check catches a run that does write there.
	if err := os.WriteFile(filepath.Join(checkout, "stray.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	changed, err := ck.Changed()
	if err != nil || len(changed) != 1 || !strings.Contains(changed[0], "stray.txt") {
		t.Errorf("Changed() = %v, %v; want stray.txt", changed, err)
	}
}
