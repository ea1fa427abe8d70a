//go:build darwin || freebsd || netbsd

package osfile

import (
	"os"
	"syscall"
)

// ChangeTime is when the file's inode last changed (Unix nanoseconds): a time
// touch cannot set back.
func ChangeTime(st os.FileInfo) int64 {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return sys.Ctimespec.Nano()
	}
	return st.ModTime().UnixNano()
}
