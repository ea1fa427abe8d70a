//go:build unix

package osfile

import (
	"io/fs"
	"os"
	"syscall"
)

// OpenFile is os.OpenFile without the poller (close-on-exec, as os opens).
func OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	for {
		fd, err := syscall.Open(name, flag|syscall.O_CLOEXEC, uint32(perm.Perm()))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return os.NewFile(uintptr(fd), name), nil
	}
}
