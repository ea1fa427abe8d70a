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

// endGroup kills what is left of the check's process group once its shell
// has ended (a background job of the check).
func endGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
