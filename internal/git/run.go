// Package git is intenthook's one way to git: it runs git with argument
// lists, never shell strings (paths and names reach git untouched, and a
// failure carries the first line of what git said), reads objects in batches
// through one `git cat-file --batch` process, relates a workspace root to its
// work tree, and reads HEAD from the repository's files without starting git
// at all. It knows nothing of intents or ledgers.
package git

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// Output runs git args in dir with env (nil: the process's environment) and
// returns its standard output.
func Output(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	return OutputFed(ctx, dir, env, nil, args...)
}

// OutputFed is Output with input on git's standard input (for --stdin).
func OutputFed(ctx context.Context, dir string, env []string, input []byte, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir, cmd.Env = dir, env
	if input != nil {
		cmd.Stdin = bytes.NewReader(input)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		line, _, _ := strings.Cut(msg, "\n")
		return nil, fmt.Errorf("git %s: %s", args[0], line)
	}
	return out, nil
}

// Line runs git args in dir and returns its output without the final newline.
func Line(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := Output(ctx, dir, nil, args...)
	return strings.TrimSuffix(string(out), "\n"), err
}
