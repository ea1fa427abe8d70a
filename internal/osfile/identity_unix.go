//go:build unix

package osfile

import (
	"io/fs"
	"os"
	"syscall"
)

// FileID returns the file's number on its file system (the inode), from
// fi as os.Lstat or os.Stat returned it for path; 0 when it is not known.
func FileID(_ string, fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}

// DeviceID returns the number of the device (the file system) that holds
// the file, from fi as os.Lstat or os.Stat returned it; 0 when it is not
// known. With FileID it names one file: a file of another file system
// with the same inode number is another file.
func DeviceID(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev)
	}
	return 0
}

// Rename is os.Rename: a file another process holds open is replaced all
// the same (the holder keeps reading the old one).
func Rename(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }

// Links returns the file's link count (how many names it has), from fi as
// os.Lstat or os.Stat returned it; 0 when it is not known.
func Links(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 0
}
