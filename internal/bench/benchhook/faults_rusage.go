//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package main

import (
	"os"
	"syscall"
)

// pageFaults reads an ended process's minor and major page faults from the
// resource usage wait4 reported for it (the process and the children it
// waited for).
func pageFaults(ps *os.ProcessState) (minflt, majflt int64, ok bool) {
	if ps == nil {
		return 0, 0, false
	}
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0, 0, false
	}
	return int64(ru.Minflt), int64(ru.Majflt), true
}
