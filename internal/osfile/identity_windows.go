//go:build windows

package osfile

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// FileID returns the file's index on its volume (what an inode number is
// elsewhere), asked of the file itself: Windows' os.Lstat does not carry
// it. A link is not followed. 0 when it is not known.
func FileID(path string, _ fs.FileInfo) uint64 {
	p, err := syscall.UTF16PtrFromString(path)
	if err != nil {
		return 0
	}
	// No access asked for (attributes only), sharing everything: the open
	// neither waits for nor blocks another process.
	h, err := syscall.CreateFile(p, 0, syscall.FILE_SHARE_READ|syscall.FILE_SHARE_WRITE|syscall.FILE_SHARE_DELETE, nil,
		syscall.OPEN_EXISTING, syscall.FILE_FLAG_BACKUP_SEMANTICS|syscall.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return 0
	}
	defer syscall.CloseHandle(h)
	var info syscall.ByHandleFileInformation
	if err := syscall.GetFileInformationByHandle(h, &info); err != nil {
		return 0
	}
	return uint64(info.FileIndexHigh)<<32 | uint64(info.FileIndexLow)
}

// DeviceID is 0 on Windows: os.Lstat does not carry the volume's serial
// number, and FileID, asked of the file, tells files apart by their index.
func DeviceID(fs.FileInfo) uint64 { return 0 }

// renameWait is how long Rename retries a file another process holds open.
const renameWait = 500 * time.Millisecond

// Rename is os.Rename, retried for up to half a second while Windows
// refuses it because another process holds the file open without sharing
// its deletion (Go's own os.Open does not share it): a reader holds a
// state file only for the time of a read. Past that the error is returned;
// the caller's write fails rather than waits on a hook's time.
func Rename(oldpath, newpath string) error {
	deadline := time.Now().Add(renameWait)
	for delay := time.Millisecond; ; delay *= 2 {
		err := os.Rename(oldpath, newpath)
		if err == nil || !busy(err) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(min(delay, 50*time.Millisecond))
	}
}

// busy reports whether err is Windows refusing to touch a file another
// process holds open.
func busy(err error) bool {
	const errorSharingViolation syscall.Errno = 32
	return errors.Is(err, syscall.ERROR_ACCESS_DENIED) || errors.Is(err, errorSharingViolation)
}

// Links is not known from a FileInfo on Windows (it would take a handle
// and GetFileInformationByHandle per file): 0.
func Links(fs.FileInfo) uint64 { return 0 }
