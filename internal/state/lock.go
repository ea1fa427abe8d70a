package state

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Lock names, in the only order in which they may be taken: a holder of a later
// lock never waits for an earlier one.
const (
	LockCatalog = "catalog"
	LockSession = "session" // suffixed with the session key
	LockLedger  = "ledger"
	LockSpool   = "spool" // held while a record is spooled or the spool is listed
	LockMap     = "map"
	LockLessons = "lessons"
)

// Unlock releases a lock taken with Lock.
type Unlock func()

// lockBudget is what a call may still wait for locks, all of them
// together.
type lockBudget struct {
	mu   sync.Mutex
	left time.Duration
}

type budgetKey struct{}

// WithLockBudget bounds the total time the locks taken under ctx may wait:
// a hook call takes several (the session's, the ledger's, the map's…), and
// each waiting its own timeout would hold the agent for several times it.
// A lock that is free is taken even when the budget is spent.
func WithLockBudget(ctx context.Context, total time.Duration) context.Context {
	return context.WithValue(ctx, budgetKey{}, &lockBudget{left: total})
}

// allow returns how long a lock may wait: timeout, or less when the call's
// budget has less left.
func (b *lockBudget) allow(timeout time.Duration) time.Duration {
	if b == nil {
		return timeout
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return max(0, min(timeout, b.left))
}

func (b *lockBudget) spend(d time.Duration) {
	if b != nil {
		b.mu.Lock()
		b.left -= d
		b.mu.Unlock()
	}
}

// Lock takes the sidecar lock state/locks/<name>.lock, waiting at most timeout
// (and at most what ctx's lock budget has left). Lock files are never
// deleted: deleting one would let two processes hold "the same" lock on
// different inodes.
func Lock(ctx context.Context, root, name string, timeout time.Duration) (Unlock, error) {
	path := filepath.Join(Path(root, "locks"), name+".lock")
	return lockFile(ctx, path, name, timeout, func() error { return Ensure(root, "locks") })
}

// LockFile takes the lock file at path (absolute), making its directory
// when there is none: a lock of the repository's, under the common git
// directory, that a state file shared by its work trees needs.
func LockFile(ctx context.Context, path, name string, timeout time.Duration) (Unlock, error) {
	return lockFile(ctx, path, name, timeout, func() error { return os.MkdirAll(filepath.Dir(path), 0o755) })
}

// lockFile takes the lock file at path; mkdir makes its directory when
// the first try finds none.
func lockFile(ctx context.Context, path, name string, timeout time.Duration, mkdir func() error) (Unlock, error) {
	fl := &fileLock{path: path}
	budget, _ := ctx.Value(budgetKey{}).(*lockBudget)
	wait := budget.allow(timeout)
	start := time.Now()
	defer func() { budget.spend(time.Since(start)) }()
	ok, err := fl.tryLock()
	if errors.Is(err, fs.ErrNotExist) {
		// The first lock of a workspace: make its directory and try again.
		if err := mkdir(); err != nil {
			return nil, err
		}
		ok, err = fl.tryLock()
	}
	if ok {
		return fl.release, nil
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			fl.release()
			return nil, fmt.Errorf("lock %s after %s: %w", name, wait, ErrLockTimeout)
		case <-tick.C:
		}
		if ok, err := fl.tryLock(); ok {
			return fl.release, nil
		} else if err != nil {
			fl.release()
			return nil, fmt.Errorf("lock %s: %w", name, err)
		}
	}
}
