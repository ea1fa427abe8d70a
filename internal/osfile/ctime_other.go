//go:build !linux && !darwin && !freebsd && !netbsd

package osfile

import "os"

// ChangeTime falls back to the modification time where the inode's change
// time is not at hand.
func ChangeTime(st os.FileInfo) int64 { return st.ModTime().UnixNano() }
