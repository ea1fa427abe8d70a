//go:build !linux && !darwin && !freebsd && !netbsd

package guard

import "os"

// changeTime falls back to the modification time where the inode's change
// time is not at hand.
func changeTime(st os.FileInfo) int64 { return st.ModTime().UnixNano() }
