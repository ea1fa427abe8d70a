//go:build unix

package acceptance

import (
	"os/exec"
	"syscall"
)

// ownGroup runs the check in a process group of its own, so that a timeout
// kills what the check started too, not only its shell.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
