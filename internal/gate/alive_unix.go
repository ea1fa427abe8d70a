//go:build unix

package gate

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process pid exists (signal 0 checks
// without signalling; a process of another user still exists).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
