//go:build !linux && !darwin && !freebsd && !netbsd

package git

import "os"

// changed falls back to the modification time where the inode's change
// time is not at hand.
func changed(st os.FileInfo) int64 { return st.ModTime().UnixNano() }
