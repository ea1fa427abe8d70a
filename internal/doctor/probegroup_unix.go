//go:build unix

package doctor

import (
	"os/exec"
	"syscall"
)

// ownGroup runs the probe's git in a process group of its own, so that a
// timeout kills the hooks it started too, not only git.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// endGroup kills what is left of the group once git has ended (a hook's
// background job).
func endGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
