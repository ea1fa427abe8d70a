//go:build unix

package workspace

import (
	"os"
	"syscall"
)

// linkCount returns how many names the file has, and whether that is known.
func linkCount(fi os.FileInfo) (uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Nlink), true
}
