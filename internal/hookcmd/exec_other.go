//go:build !unix

package hookcmd

import (
	"errors"
	"fmt"
	"os"
	"os/exec"

	"github.com/intenthook/intenthook/internal/full"
)

// execFull runs the full binary with this process's streams and exits with
// its code.
func execFull(path string, args []string) error {
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), full.Marker+"=1")
	err := cmd.Run()
	var ee *exec.ExitError
	if err == nil || errors.As(err, &ee) {
		os.Exit(cmd.ProcessState.ExitCode())
	}
	return fmt.Errorf("cannot run %s: %v", path, err)
}
