//go:build !unix

package osfile

import (
	"io/fs"
	"os"
)

// OpenFile is os.OpenFile here.
func OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}
