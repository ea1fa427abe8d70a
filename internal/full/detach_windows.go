//go:build windows

package full

import "syscall"

// detached starts the process without a console, in a process group of its
// own (DETACHED_PROCESS | CREATE_NEW_PROCESS_GROUP).
func detached() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: 0x00000008 | 0x00000200}
}
