//go:build unix

package state

import (
	"os"
	"syscall"

	"github.com/intenthook/intenthook/internal/osfile"
)

// fileLock is an flock(2) lock on a sidecar file, opened once.
type fileLock struct {
	path string
	f    *os.File
}

// tryLock takes the lock if it is free; false without an error when
// another process holds it.
func (l *fileLock) tryLock() (bool, error) {
	if l.f == nil {
		f, err := osfile.OpenFile(l.path, os.O_RDONLY|os.O_CREATE, 0o600)
		if err != nil {
			return false, err
		}
		l.f = f
	}
	for {
		err := syscall.Flock(int(l.f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch err {
		case nil:
			return true, nil
		case syscall.EINTR:
			continue
		case syscall.EWOULDBLOCK:
			return false, nil
		}
		return false, &os.PathError{Op: "flock", Path: l.path, Err: err}
	}
}

// release closes the file, which releases the lock if it is held.
func (l *fileLock) release() {
	if l.f != nil {
		_ = l.f.Close()
		l.f = nil
	}
}
