//go:build !unix && !windows

package osfile

import (
	"io/fs"
	"os"
)

// FileID is not known here: 0.
func FileID(string, fs.FileInfo) uint64 { return 0 }

// DeviceID is not known here: 0.
func DeviceID(fs.FileInfo) uint64 { return 0 }

// Rename is os.Rename.
func Rename(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }

// Links is not known here: 0.
func Links(fs.FileInfo) uint64 { return 0 }
