package harness

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
)

// Checkout is the repository make e2e runs from. A run writes only into
// its throw-away workspaces: Changed says what it left in the checkout.
type Checkout struct {
	Root   string
	before []string
}

// OpenCheckout notes the git status of the repository holding dir.
func OpenCheckout(dir string) (*Checkout, error) {
	out, err := exec.Command("git", "-C", dir, "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return nil, fmt.Errorf("find the checkout from %s: %w", dir, err)
	}
	c := &Checkout{Root: strings.TrimSpace(string(out))}
	if c.before, err = c.status(); err != nil {
		return nil, err
	}
	return c, nil
}

// Changed lists the entries of git status --porcelain that were not there
// when the checkout was opened.
func (c *Checkout) Changed() ([]string, error) {
	now, err := c.status()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range now {
		if !slices.Contains(c.before, l) {
			out = append(out, l)
		}
	}
	return out, nil
}

func (c *Checkout) status() ([]string, error) {
	out, err := exec.Command("git", "-C", c.Root, "status", "--porcelain", "--untracked-files=all").Output()
	if err != nil {
		return nil, fmt.Errorf("git status in %s: %w", c.Root, err)
	}
	return strings.Split(strings.TrimRight(string(out), "\n"), "\n"), nil
}

// inDir is env for a process started in dir: PWD as a shell would set it
// (OpenCode takes its project directory from PWD, not from its working
// directory), and no other directory a client could take for its project
// or go back to (OLDPWD, npm's INIT_CWD), which would be the checkout make
// e2e runs from.
func inDir(env []string, dir string) []string {
	out := make([]string, 0, len(env)+2)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "PWD", "OLDPWD", "INIT_CWD":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "PWD="+dir, "OLDPWD="+dir)
}

// Leave moves the process into a fresh temporary directory, so that no
// client, nor anything a client leaves running, starts in the checkout.
// The returned function goes back and removes the directory.
func Leave() (func(), error) {
	prev, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "e2e-cwd-")
	if err != nil {
		return nil, err
	}
	if err := os.Chdir(dir); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	return func() {
		_ = os.Chdir(prev)
		_ = os.RemoveAll(dir)
	}, nil
}
