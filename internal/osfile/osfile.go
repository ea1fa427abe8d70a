// Package osfile opens files the way a hook process should: os.Open
// registers every file with the runtime's poller, which a regular file
// refuses — on Linux four fcntl calls and a failed epoll_ctl per open, and
// on the first open an epoll instance, an eventfd and a woken poller thread:
// more system calls than the rest of a Write's check. The files opened here
// are plain blocking files, as regular files are anyway.
package osfile

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrNotRegular is the error of a file that is neither a regular file nor a
// directory (a FIFO, a device, a socket): nothing a hook reads is one.
var ErrNotRegular = errors.New("not a regular file")

// Open opens name for reading.
func Open(name string) (*os.File, error) { return OpenFile(name, os.O_RDONLY, 0) }

// CreateTemp creates a new file in dir for reading and writing, mode 0600,
// named by pattern with its last "*" replaced by a random string (appended
// when there is none), as os.CreateTemp does.
func CreateTemp(dir, pattern string) (*os.File, error) {
	prefix, suffix := pattern, ""
	if i := strings.LastIndexByte(pattern, '*'); i >= 0 {
		prefix, suffix = pattern[:i], pattern[i+1:]
	}
	for try := 0; ; try++ {
		name := filepath.Join(dir, prefix+strconv.FormatUint(rand.Uint64(), 36)+suffix)
		f, err := OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) && try < 100 {
			continue
		}
		return f, err
	}
}
