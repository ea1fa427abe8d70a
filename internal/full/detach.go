package full

import (
	"fmt"
	"os"
	"os/exec"
)

// Detach starts the program at path with args in dir, detached: in a
// session (a process group on Windows) of its own, with /dev/null for its
// standard streams, and not waited for. An agent waits for a hook's pipes
// to close, so whatever a hook starts must hold none of them; the program
// started says what it has to say in its own log.
func Detach(path string, args []string, dir string) error {
	cmd := exec.Command(path, args...)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, nil, nil // os.DevNull
	cmd.SysProcAttr = detached()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", path, err)
	}
	return cmd.Process.Release()
}
