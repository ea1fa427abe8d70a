//go:build windows

package gate

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process pid exists and has not exited:
// it is opened for its exit code alone (which any user may ask of any
// process but the system's protected ones, which are taken to run still).
func processAlive(pid int) bool {
	const processQueryLimitedInformation = 0x1000
	const stillActive = 259
	h, err := syscall.OpenProcess(processQueryLimitedInformation, false, uint32(pid))
	if err != nil {
		return errors.Is(err, syscall.ERROR_ACCESS_DENIED)
	}
	defer syscall.CloseHandle(h)
	var code uint32
	if err := syscall.GetExitCodeProcess(h, &code); err != nil {
		return true
	}
	return code == stillActive
}
