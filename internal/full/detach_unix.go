//go:build unix

package full

import "syscall"

// detached puts the process in a new session: no controlling terminal, no
// signal from the agent's process group.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
