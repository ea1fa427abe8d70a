//go:build unix

package workspace

import (
	"os"
	"syscall"
)

// hardLinked reports whether the file has more than one name.
func hardLinked(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink > 1
}
