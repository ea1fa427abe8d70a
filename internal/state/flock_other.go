//go:build !unix

package state

import "github.com/gofrs/flock"

// fileLock is gofrs/flock's lock on a sidecar file where flock(2) is not.
type fileLock struct {
	path string
	fl   *flock.Flock
}

func (l *fileLock) tryLock() (bool, error) {
	if l.fl == nil {
		l.fl = flock.New(l.path)
	}
	return l.fl.TryLock()
}

// release releases the lock if it is held and closes the file.
func (l *fileLock) release() { _ = l.fl.Unlock() }
