//go:build unix

package state

import (
	"os"
	"syscall"

	"github.com/intenthook/intenthook/internal/osfile"
)

// fileLock is an flock(2) lock on a sidecar file, opened once, as a bare
// descriptor: an *os.File would cost two fcntl calls a lock.
type fileLock struct {
	path string
	fd   int
	open bool
}

// tryLock takes the lock if it is free; false without an error when
// another process holds it. On an error the file is closed.
func (l *fileLock) tryLock() (bool, error) {
	if !l.open {
		fd, err := osfile.OpenFD(l.path, os.O_RDONLY|os.O_CREATE, 0o600)
		if err != nil {
			return false, err
		}
		l.fd, l.open = fd, true
	}
	for {
		err := syscall.Flock(l.fd, syscall.LOCK_EX|syscall.LOCK_NB)
		switch err {
		case nil:
			return true, nil
		case syscall.EINTR:
			continue
		case syscall.EWOULDBLOCK:
			return false, nil
		}
		l.release()
		return false, &os.PathError{Op: "flock", Path: l.path, Err: err}
	}
}

// release closes the file, which releases the lock if it is held.
func (l *fileLock) release() {
	if l.open {
		_ = syscall.Close(l.fd)
		l.open = false
	}
}
