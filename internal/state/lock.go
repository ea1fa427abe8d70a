package state

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// Lock names, in the only order in which they may be taken: a holder of a later
// lock never waits for an earlier one.
const (
	LockCatalog = "catalog"
	LockSession = "session" // suffixed with the session key
	LockLedger  = "ledger"
	LockMap     = "map"
	LockLessons = "lessons"
)

// Unlock releases a lock taken with Lock.
type Unlock func()

// Lock takes the sidecar lock state/locks/<name>.lock, waiting at most timeout.
// Lock files are never deleted: deleting one would let two processes hold
// "the same" lock on different inodes.
func Lock(ctx context.Context, root, name string, timeout time.Duration) (Unlock, error) {
	fl := flock.New(filepath.Join(Path(root, "locks"), name+".lock"))
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ok, err := fl.TryLockContext(ctx, 2*time.Millisecond)
	if errors.Is(err, fs.ErrNotExist) {
		// The first lock of a workspace: make state/locks/ and try again.
		if err := Ensure(root, "locks"); err != nil {
			return nil, err
		}
		ok, err = fl.TryLockContext(ctx, 2*time.Millisecond)
	}
	if err != nil && ctx.Err() == nil {
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	if !ok {
		return nil, fmt.Errorf("lock %s after %s: %w", name, timeout, ErrLockTimeout)
	}
	return func() { _ = fl.Unlock() }, nil
}
